#version 450
// ifds_ingest: across devices, the inbox's pc.in_count path edges into the
// table and log (see ifds_ingest_item in programs/ifds/ifds_kernels.h).
#include "ifds_common.glsl"
void main() {
  if (!ifds_stopped()) {
    for (uint i = ifds_first(); i < pc.in_count; i += ifds_stride()) ifds_ingest_item(i);
  }
  ifds_check_loops();
}
