/* The presets of the generator: default sizes and shape parameters. */
#include <string.h>

#include "engine/ifds/gen.h"

typedef struct preset_info {
  const char *name;
  uint32_t procs, nodes_per_proc, facts, seeds;
  ifds_gen_params params;
} preset_info;

/* Fields of ifds_gen_params, in order: mode, size_jitter, big, call,
 * indirect, max_indirect, branch, loop, unreachable, none, gen, kill, move,
 * block, block_pairs, id_callflow, fact_window (permille unless noted). */
// clang-format off
static const preset_info presets[WEIR_IFDS_PRESET_COUNT] = {
    [WEIR_IFDS_PRESET_CHAIN] = {"chain", 1000, 4, 8, 4,
                                {IFDS_CALLEES_CHAIN, 0, 0, 0, 0, 2, 100, 0, 0,
                                 0, 150, 100, 50, 0, 0, 1000, 0}},
    [WEIR_IFDS_PRESET_FANOUT] = {"fanout", 500, 8, 16, 1,
                                 {IFDS_CALLEES_FANOUT, 1, 0, 150, 0, 2, 100, 50, 0,
                                  0, 120, 100, 50, 0, 0, 300, 0}},
    [WEIR_IFDS_PRESET_RECURSIVE] = {"recursive", 200, 8, 8, 2,
                                    {IFDS_CALLEES_RECURSIVE, 1, 0, 100, 100, 3, 100, 50, 0,
                                     0, 120, 100, 50, 0, 0, 500, 0}},
    [WEIR_IFDS_PRESET_WIDE_FACTS] = {"wide-facts", 8, 16, 2048, 512,
                                     {IFDS_CALLEES_FORWARD, 0, 0, 100, 100, 3, 150, 50, 0,
                                      10, 200, 100, 100, 300, 16, 0, 0}},
    [WEIR_IFDS_PRESET_LOOPS] = {"loops", 200, 30, 16, 4,
                                {IFDS_CALLEES_FORWARD, 1, 0, 50, 50, 2, 150, 300, 0,
                                 0, 150, 100, 50, 0, 0, 200, 0}},
    [WEIR_IFDS_PRESET_REALISTIC] = {"realistic", 1000, 20, 16, 8,
                                    {IFDS_CALLEES_FORWARD, 1, 20, 100, 100, 4, 100, 60, 50,
                                     20, 50, 150, 40, 0, 0, 50, 0}},
};
// clang-format on

const char *weir_ifds_preset_name(weir_ifds_preset preset) {
  return (unsigned)preset < WEIR_IFDS_PRESET_COUNT ? presets[preset].name : "unknown";
}

weir_status weir_ifds_preset_parse(const char *name, weir_ifds_preset *out) {
  for (int i = 0; name && i < WEIR_IFDS_PRESET_COUNT; ++i)
    if (strcmp(name, presets[i].name) == 0) {
      *out = (weir_ifds_preset)i;
      return WEIR_OK;
    }
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "unknown generator preset '%s'. Fix: use one of "
                   "chain, fanout, recursive, wide-facts, loops, realistic.",
                   name ? name : "(null)");
}

void weir_ifds_gen_defaults(weir_ifds_gen_options *o) {
  if ((unsigned)o->preset >= WEIR_IFDS_PRESET_COUNT) return;
  const preset_info *info = &presets[o->preset];
  if (!o->procs) o->procs = info->procs;
  if (!o->nodes_per_proc) o->nodes_per_proc = info->nodes_per_proc;
  if (!o->facts) o->facts = info->facts;
  if (!o->seeds) o->seeds = info->seeds;
}

void ifds_gen_params_of(const weir_ifds_gen_options *o, ifds_gen_params *params) {
  *params = presets[o->preset].params;
}
