#version 450
// ide_advance: one invocation (see ide_advance in programs/ide/ide_kernels.h).
// It reads no push constant, but binds the same block as ide_round (the
// program declares it; `targets` is read so that the block is kept).
#include "ide_common.glsl"
void main() {
  if (gl_GlobalInvocationID.x == 0u && pc.targets != NIL) ide_advance();
}
