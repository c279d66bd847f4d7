// Shared by the generic GLSL programs (included, not compiled on its own).
// The workgroup size comes from specialization constants 0..2, which the
// Vulkan backend sets from weir_program.workgroup_size, so the shader and the
// program declaration can never disagree.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// The element index of this invocation, exactly as the host kernels compute it
// (programs/generic.c, workgroup_span): workgroups are linearised x-fastest and
// each covers workgroup_size.x consecutive elements; only invocations with
// local y == z == 0 take part. Returns false when the index does not fit in 32
// bits: it is then past every count (counts are 32-bit), as on the host.
bool weir_element_index(out uint index) {
  index = 0u;
  if (gl_LocalInvocationID.y != 0u || gl_LocalInvocationID.z != 0u) return false;
  uvec3 id = gl_WorkGroupID;
  uvec3 n = gl_NumWorkGroups;
  uint hi, lo, carry;
  umulExtended(n.y, id.z, hi, lo);          // t = y + ny * z
  if (hi != 0u) return false;
  uint t = uaddCarry(lo, id.y, carry);
  if (carry != 0u) return false;
  umulExtended(n.x, t, hi, lo);             // linear = x + nx * t
  if (hi != 0u) return false;
  uint linear = uaddCarry(lo, id.x, carry);
  if (carry != 0u) return false;
  umulExtended(linear, gl_WorkGroupSize.x, hi, lo); // linear * wg + local x
  if (hi != 0u) return false;
  index = uaddCarry(lo, gl_LocalInvocationID.x, carry);
  return carry == 0u;
}
