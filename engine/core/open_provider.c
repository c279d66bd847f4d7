/* weir_backend_open_provider: a backend compiled into the application (no
 * plugin file), opened through the same validation and engine defaults as a
 * built-in or a plugin. */
#include <stddef.h>

#include "engine/core/internal.h"

weir_status weir_backend_open_provider(const weir_provider *provider, uint32_t index,
                                       const weir_open_options *options, weir_backend **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_open_provider: out is NULL. Fix: pass the address of a "
                     "weir_backend pointer.");
  *out = NULL;
  if (!provider)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_open_provider: provider is NULL. Fix: pass the address of a "
                     "static weir_provider.");
  WEIR_TRY(weir_provider_validate(provider, "given to weir_backend_open_provider"));
  return weir_backend_wrap(provider, NULL, index, options, out);
}
