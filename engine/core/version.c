/* weir_version() and weir_abi_version(): the values this library was built
 * with, for programs to compare with the headers they were compiled against. */
#include "weir/version.h"

const char *weir_version(void) { return WEIR_VERSION_STRING; }

int weir_abi_version(void) { return WEIR_ABI_VERSION; }
