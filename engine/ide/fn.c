/* The exported algebra (weir/ide.h): thin wrappers of fn.h. */
#include "engine/ide/fn.h"

weir_ide_fn weir_ide_fn_identity(weir_ide_family family, uint32_t states) {
  return ide_fn_identity(family, states);
}
weir_ide_fn weir_ide_fn_top(weir_ide_family family) { return ide_fn_top(family); }
weir_ide_fn weir_ide_fn_linear(int64_t a, int64_t b) { return ide_lin(WEIR_IDE_LIN_AFFINE, a, b); }
weir_ide_fn weir_ide_fn_const(int64_t c) { return ide_lin(WEIR_IDE_LIN_CONST, 0, c); }
weir_ide_fn weir_ide_fn_compose(const weir_ide_fn *g, const weir_ide_fn *f) {
  return ide_fn_compose(g, f);
}
weir_ide_fn weir_ide_fn_join(const weir_ide_fn *f, const weir_ide_fn *g) { return ide_fn_join(f, g); }
weir_ide_value weir_ide_fn_apply(const weir_ide_fn *f, const weir_ide_value *x) {
  return ide_fn_apply(f, *x);
}
int weir_ide_fn_equal(const weir_ide_fn *f, const weir_ide_fn *g) { return ide_fn_equal(f, g); }
