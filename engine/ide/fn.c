/* The exported algebra (weir/ide.h): thin wrappers of fn.h that check the
 * families first. fn.h's functions assume one family (the solvers only ever
 * combine functions of one problem); a caller mixing families, or passing a
 * family that is not one, gets the all-zero function or value back instead
 * of one read through the wrong member of the union. */
#include "engine/ide/fn.h"

static int known(uint32_t family) {
  return family == WEIR_IDE_LINEAR || family == WEIR_IDE_TYPESTATE;
}

static const weir_ide_fn no_fn;       /* family 0: no family */
static const weir_ide_value no_value; /* kind WEIR_IDE_VALUE_TOP, 0 */

weir_ide_fn weir_ide_fn_identity(weir_ide_family family, uint32_t states) {
  if (!known(family) || (family == WEIR_IDE_TYPESTATE && states > WEIR_IDE_MAX_STATES)) return no_fn;
  return ide_fn_identity(family, states);
}
weir_ide_fn weir_ide_fn_top(weir_ide_family family) {
  return known(family) ? ide_fn_top(family) : no_fn;
}
weir_ide_fn weir_ide_fn_linear(int64_t a, int64_t b) { return ide_lin(WEIR_IDE_LIN_AFFINE, a, b); }
weir_ide_fn weir_ide_fn_const(int64_t c) { return ide_lin(WEIR_IDE_LIN_CONST, 0, c); }
weir_ide_fn weir_ide_fn_compose(const weir_ide_fn *g, const weir_ide_fn *f) {
  if (!g || !f || !known(g->family) || g->family != f->family) return no_fn;
  return ide_fn_compose(g, f);
}
weir_ide_fn weir_ide_fn_join(const weir_ide_fn *f, const weir_ide_fn *g) {
  if (!g || !f || !known(f->family) || g->family != f->family) return no_fn;
  return ide_fn_join(f, g);
}
weir_ide_value weir_ide_fn_apply(const weir_ide_fn *f, const weir_ide_value *x) {
  if (!f || !x || !known(f->family) ||
      (f->family == WEIR_IDE_TYPESTATE) != (x->kind == WEIR_IDE_VALUE_STATES) ||
      x->kind > WEIR_IDE_VALUE_STATES)
    return no_value;
  return ide_fn_apply(f, *x);
}
int weir_ide_fn_equal(const weir_ide_fn *f, const weir_ide_fn *g) {
  if (!f || !g || !known(f->family) || !known(g->family)) return 0;
  return ide_fn_equal(f, g);
}
