#version 450
// A vertex shader: weir runs compute shaders only.
void main() { gl_Position = vec4(0.0); }
