#version 450
// noop: does nothing; measures the cost of a dispatch.
#include "weir_common.glsl"
void main() {}
