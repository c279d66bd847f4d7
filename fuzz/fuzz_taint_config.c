/* libFuzzer target: the taint configuration parser of `weir analyze`
 * (frontends/llvm). Every input is accepted or refused with a message. */
#include <stdint.h>
#include <stdlib.h>

#include "frontends/llvm/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weir_llvm_config *config = NULL;
  if (weir_llvm_config_new(&config) != WEIR_OK) return 0;
  (void)weir_llvm_config_parse(config, "fuzz.cfg", (const char *)data, size);
  weir_llvm_config_free(config);
  return 0;
}
