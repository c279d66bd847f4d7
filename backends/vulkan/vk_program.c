/* Programs: one shader module, push-descriptor set layout, pipeline layout
 * and compute pipeline per program per device, made once (the engine caches
 * the state per instance). The workgroup size is passed as specialization
 * constants 0..2, which weir's GLSL uses for local_size_{x,y,z}_id. */
#include <stdlib.h>

#include "backends/vulkan/vk_internal.h"

#define SPIRV_MAGIC 0x07230203u

static weir_status check_program(weir_vk *vk, const weir_program *p) {
  const VkPhysicalDeviceLimits *l = &vk->props.limits;
  if (p->spirv_bytes % 4 != 0 || p->spirv[0] != SPIRV_MAGIC)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "vulkan: program '%s' has %zu bytes of SPIR-V starting with 0x%08x (expected "
                     "whole 32-bit words starting with the magic 0x%08x). Fix: embed the .spv "
                     "file as uint32_t words in host byte order.",
                     p->name, p->spirv_bytes, p->spirv[0], SPIRV_MAGIC);
  uint64_t invocations = (uint64_t)p->workgroup_size[0] * p->workgroup_size[1] * p->workgroup_size[2];
  for (int i = 0; i < 3; ++i)
    if (p->workgroup_size[i] > l->maxComputeWorkGroupSize[i] || invocations > l->maxComputeWorkGroupInvocations)
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "vulkan: program '%s' has workgroup size %u x %u x %u, but %s allows at most "
                       "%u x %u x %u and %u invocations. Fix: use a smaller workgroup.",
                       p->name, p->workgroup_size[0], p->workgroup_size[1], p->workgroup_size[2],
                       vk->props.deviceName, l->maxComputeWorkGroupSize[0], l->maxComputeWorkGroupSize[1],
                       l->maxComputeWorkGroupSize[2], l->maxComputeWorkGroupInvocations);
  if (p->binding_count > vk->max_push_descriptors)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "vulkan: program '%s' has %u bindings, but %s pushes at most %u descriptors "
                     "per set (maxPushDescriptors). Fix: use fewer bindings (pack arrays into "
                     "one buffer) or another device.",
                     p->name, p->binding_count, vk->props.deviceName, vk->max_push_descriptors);
  if (p->push_constant_bytes > l->maxPushConstantsSize)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "vulkan: program '%s' takes %u push-constant bytes, but %s allows %u. Fix: "
                     "move parameters into a buffer.",
                     p->name, p->push_constant_bytes, vk->props.deviceName, l->maxPushConstantsSize);
  return WEIR_OK;
}

/* Walks the module's leading OpCapability instructions: a program that needs
 * 64-bit integers or atomics the device lacks is refused by name, and a
 * truncated module is refused before it reaches the driver. */
static weir_status check_capabilities(weir_vk *vk, const weir_program *p) {
  enum { OP_CAPABILITY = 17, CAP_INT64 = 11, CAP_INT64_ATOMICS = 12 };
  size_t words = p->spirv_bytes / 4;
  for (size_t at = 5; at < words;) {
    uint32_t count = p->spirv[at] >> 16, op = p->spirv[at] & 0xffffu;
    if (count == 0 || at + count > words)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "vulkan: program '%s' has a malformed SPIR-V instruction at word %zu (%u "
                       "words, module has %zu). Fix: rebuild the module and check it with spirv-val.",
                       p->name, at, count, words);
    if (op != OP_CAPABILITY) break; /* capabilities come first */
    uint32_t cap = count > 1 ? p->spirv[at + 1] : 0;
    const char *missing = cap == CAP_INT64 && !vk->has_int64 ? "64-bit integers (shaderInt64)"
                          : cap == CAP_INT64_ATOMICS && !vk->has_int64_atomics
                              ? "64-bit buffer atomics (shaderBufferInt64Atomics)"
                              : NULL;
    if (missing)
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "vulkan: program '%s' needs %s, which %s does not support. Fix: run it on "
                       "another device (vulkan:N) or backend.",
                       p->name, missing, vk->props.deviceName);
    at += count;
  }
  return WEIR_OK;
}

static weir_status create_layouts(weir_vk *vk, const weir_program *p, weir_vk_program *out) {
  VkDescriptorSetLayoutBinding bindings[WEIR_MAX_BINDINGS];
  for (uint32_t i = 0; i < p->binding_count; ++i)
    bindings[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .descriptorCount = 1,
                                                 .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  VkResult r;
  if (p->binding_count > 0) {
    VkDescriptorSetLayoutCreateInfo set = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = p->binding_count,
        .pBindings = bindings};
    r = vk->vk.vkCreateDescriptorSetLayout(vk->device, &set, NULL, &out->set_layout);
    if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateDescriptorSetLayout", p->name);
  }
  VkPushConstantRange push = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = p->push_constant_bytes};
  VkPipelineLayoutCreateInfo layout = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                       .setLayoutCount = p->binding_count > 0 ? 1u : 0u,
                                       .pSetLayouts = &out->set_layout,
                                       .pushConstantRangeCount = p->push_constant_bytes > 0 ? 1u : 0u,
                                       .pPushConstantRanges = &push};
  r = vk->vk.vkCreatePipelineLayout(vk->device, &layout, NULL, &out->layout);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreatePipelineLayout", p->name);
  return WEIR_OK;
}

static weir_status create_pipeline(weir_vk *vk, const weir_program *p, weir_vk_program *out) {
  VkShaderModuleCreateInfo module = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = p->spirv_bytes,
                                     .pCode = p->spirv};
  VkResult r = vk->vk.vkCreateShaderModule(vk->device, &module, NULL, &out->module);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateShaderModule", p->name);
  VkSpecializationMapEntry entries[3];
  for (uint32_t i = 0; i < 3; ++i)
    entries[i] = (VkSpecializationMapEntry){.constantID = i, .offset = 4 * i, .size = 4};
  VkSpecializationInfo spec = {.mapEntryCount = 3,
                               .pMapEntries = entries,
                               .dataSize = sizeof p->workgroup_size,
                               .pData = p->workgroup_size};
  VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = out->module,
                .pName = "main",
                .pSpecializationInfo = &spec},
      .layout = out->layout};
  r = vk->vk.vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &info, NULL, &out->pipeline);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateComputePipelines", p->name);
  return WEIR_OK;
}

weir_status weir_vk_prepare_program(void *self, const weir_program *program, void **out_state) {
  weir_vk *vk = self;
  WEIR_TRY(check_program(vk, program));
  WEIR_TRY(check_capabilities(vk, program));
  /* The module against the declaration: a hard-coded local size that differs
   * from workgroup_size, set-0 bindings, the push-constant block. */
  WEIR_TRY(weir_program_check_spirv(program));
  weir_vk_program *prog = calloc(1, sizeof *prog);
  if (!prog) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "vulkan: no host memory for program '%s'. Fix: free host memory.", program->name);
  weir_status s = create_layouts(vk, program, prog);
  if (s == WEIR_OK) s = create_pipeline(vk, program, prog);
  if (s != WEIR_OK) {
    weir_vk_release_program(vk, program, prog);
    return s;
  }
  *out_state = prog;
  return WEIR_OK;
}

void weir_vk_release_program(void *self, const weir_program *program, void *state) {
  (void)program;
  weir_vk *vk = self;
  weir_vk_program *prog = state;
  if (!prog) return;
  if (vk->recording) (void)weir_vk_flush(vk); /* nothing recorded may name it */
  if (prog->pipeline) vk->vk.vkDestroyPipeline(vk->device, prog->pipeline, NULL);
  if (prog->layout) vk->vk.vkDestroyPipelineLayout(vk->device, prog->layout, NULL);
  if (prog->set_layout) vk->vk.vkDestroyDescriptorSetLayout(vk->device, prog->set_layout, NULL);
  if (prog->module) vk->vk.vkDestroyShaderModule(vk->device, prog->module, NULL);
  free(prog);
}
