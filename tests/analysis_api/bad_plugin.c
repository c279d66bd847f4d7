/* Analysis plugins that weir-analyze must refuse, one per define, each with
 * a message ending in a Fix (plugin_test.sh):
 *   BAD_ABI     another WEIR_ANALYSIS_ABI_VERSION
 *   NO_ENTRY    no weir_analysis_register symbol
 *   OTHER_ID    id "other-id" (installed as libwanted.so: the id mismatch)
 *   BUILTIN_ID  id "taint"
 *   MISUSE      a fact number the analysis does not have, in a flow
 *   CTOR        id "loud", with a constructor that says it ran (a lookup of
 *               another id on WEIR_ANALYSIS_PATH must not load it) */
#include <stdio.h>
#include <weir/analysis.h>

#ifdef CTOR
__attribute__((constructor)) static void loud(void) { fputs("weir_test_analysis_ctor: constructor ran\n", stderr); }
#endif

static const weir_fact_kind kinds[] = {{"value", WEIR_FACT_PER_VALUE, WEIR_FACT_FOLLOW, WEIR_ANALYSIS_NO_KIND}};
static const weir_analysis_rule rules[] = {{"bad-rule", "Bad", NULL, WEIR_SEVERITY_NOTE, NULL, "never", NULL}};

static void check(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  (void)cx;
  (void)inst;
}

static void other(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  (void)cx;
  (void)inst;
#ifdef MISUSE
  weir_flow_gen(flow, 123456789u);
#else
  (void)flow;
#endif
}

#ifdef BAD_ABI
#define ABI 999u
#else
#define ABI WEIR_ANALYSIS_ABI_VERSION
#endif
#if defined(OTHER_ID)
#define ID "other-id"
#elif defined(BUILTIN_ID)
#define ID "taint"
#elif defined(CTOR)
#define ID "loud"
#else
#define ID "bad-plugin"
#endif

static const weir_analysis bad = {.abi_version = ABI, .id = ID, .kinds = kinds, .kind_count = 1,
                                  .rules = rules, .rule_count = 1, .other = other, .check = check};

#ifdef NO_ENTRY
__attribute__((visibility("default"))) const weir_analysis *not_the_entry(void) { return &bad; }
#else
__attribute__((visibility("default"))) const weir_analysis *weir_analysis_register(void) { return &bad; }
#endif
