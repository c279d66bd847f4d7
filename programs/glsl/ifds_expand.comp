#version 450
// ifds_expand: step of an iteration over the delta [A, B) of the control block
// (or the push range in MODE_RANGE), pass pc.part of pc.parts; see
// ifds_expand_item in ifds_kernels.h.
#include "ifds_common.glsl"
void main() {
  if (!ifds_stopped()) {
    uint begin = ctrl[C_A], end_ = ctrl[C_B];
    if (pc.mode == MODE_RANGE) { begin = pc.begin; end_ = pc.end; }
    for (uint i = begin + ifds_first(); i < end_; i += ifds_stride()) {
      ifds_expand_item(ifds_log_get(i));
      if (ifds_stopped()) break;
    }
  }
  ifds_check_loops();
}
