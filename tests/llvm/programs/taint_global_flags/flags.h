/* Constants defined in flags.c: the branches on them are folded only once
 * the modules are analysed together. */
#ifndef FLAGS_H
#define FLAGS_H

extern const int GLOBAL_CONST_TRUE;
extern const int GLOBAL_CONST_FALSE;
extern const int GLOBAL_CONST_FIVE;
extern int globalTrue;  /* never written anywhere in the program */
extern int globalFalse; /* never written anywhere in the program */

int globalReturnsTrue(void);
int globalReturnsFalse(void);

#endif
