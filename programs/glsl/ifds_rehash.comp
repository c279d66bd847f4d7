#version 450
// ifds_rehash: the logged path edges [begin, end) back into a fresh table.
#include "ifds_common.glsl"
void main() {
  for (uint i = pc.begin + ifds_first(); i < pc.end; i += ifds_stride()) ifds_rehash_item(ifds_log_get(i));
  ifds_check_loops();
}
