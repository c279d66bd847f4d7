#version 450
// ifds_clear: b0[i] = value for i < min(end, words of b0), grid-stride.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform Push {  // weir_ifds_push
  uint fact_bits, node_bits, mode, ptab_size, plog_cap, ctab_size, inc_cap, es_cap;
  uint begin, end, value, probe_limit, part, parts, shard_shift, pad3;
  uint device, devices, out_cap, in_count;
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer B0 { uint data[]; } b0;
void main() {
  uint n = min(pc.end, uint(b0.data.length()));
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x; i < n; i += stride)
    b0.data[i] = pc.value;
}
