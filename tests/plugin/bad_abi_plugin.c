/* A plugin that declares the wrong ABI version: weir must refuse it with a
 * message that names both versions, before touching any other field. */
#include "weir/backend.h"

static const weir_provider bad_provider = {
    .abi_version = WEIR_BACKEND_ABI_VERSION + 1,
    .id = "badabi",
    .version = "0.0.0",
    .format = WEIR_FORMAT_HOST,
    .dl_device_type = 1,
};

__attribute__((visibility("default"))) const weir_provider *weir_plugin_register(void);

const weir_provider *weir_plugin_register(void) { return &bad_provider; }
