#include <check.h>
Suite *ide_generated_suite(void);
Suite *ide_generated_suite(void) { return suite_create("ide_generated"); }
