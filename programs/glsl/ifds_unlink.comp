#version 450
// ifds_unlink: partial rollback of every context slot (ifds_unlink_item).
#include "ifds_common.glsl"
void main() {
  for (uint i = ifds_first(); i < pc.ctab_size; i += ifds_stride()) ifds_unlink_item(i);
  ifds_check_loops();
}
