/* Juliet-style program-wide constants and the functions that return them.
 * Two are declared without a prototype, as Juliet's std_testcase_io.h does:
 * linked, their calls go through a cast of the function. */
extern const int GLOBAL_TRUE;
extern const int GLOBAL_FALSE;
extern const int GLOBAL_FIVE;
extern int globalFive;
int globalTrue();
int globalFalse(void);
int globalReturnsFive();
