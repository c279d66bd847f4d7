#version 450
// ifds_seed: every seed (0, node, fact) into the path-edge table and log.
#include "ifds_common.glsl"
void main() {
  if (!ifds_stopped()) {
    uint n = g[G_SEEDS];
    for (uint i = ifds_first(); i < n; i += ifds_stride()) ifds_seed_item(i);
  }
  ifds_check_loops();
}
