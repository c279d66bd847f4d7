/* VkFFT's three entry points that vk_fft.c uses, compiled in vk_fft_vkfft.c.
 * VkFFT is header-only: every translation unit that calls into it compiles
 * all of it (about 10 s at -O2, a minute under ASan+UBSan). Keeping the calls
 * in one small file of their own lets the build treat VkFFT as the
 * third-party library it is (backends/vulkan/CMakeLists.txt: an object
 * library without sanitizer instrumentation, like the glslang archives it
 * links, and byte-identical across the normal and the sanitizer build, so
 * ccache compiles it once). Including this header gives VkFFT's types; its
 * functions stay unused (and uncompiled) here. */
#ifndef WEIR_VK_FFT_VKFFT_H
#define WEIR_VK_FFT_VKFFT_H

#include "backends/vulkan/vk_internal.h"

#include <weir_vkfft.h> /* vkFFT.h, the build's C copy (backends/vulkan/CMakeLists.txt) */

/* Each runs VkFFT with `table` as the device functions it calls. */
VkFFTResult weir_vkfft_initialize(const struct VolkDeviceTable *table, VkFFTApplication *app,
                                  VkFFTConfiguration config);
VkFFTResult weir_vkfft_append(const struct VolkDeviceTable *table, VkFFTApplication *app,
                              int inverse, VkFFTLaunchParams *launch);
void weir_vkfft_delete(const struct VolkDeviceTable *table, VkFFTApplication *app);
/* A reference on glslang's process state (1 when taken; glslang counts
 * them, and frees its symbol tables when the last one goes). */
int weir_vkfft_compiler_hold(void);
void weir_vkfft_compiler_release(void);

#endif
