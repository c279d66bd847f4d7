/* DLPack naming: which devices and element types weir can exchange. */
#include "weir/interop.h"

static const char *device_type_name(int type) {
  switch (type) {
  case kDLCPU: return "kDLCPU";
  case kDLCUDA: return "kDLCUDA";
  case kDLCUDAHost: return "kDLCUDAHost";
  case kDLOpenCL: return "kDLOpenCL";
  case kDLVulkan: return "kDLVulkan";
  case kDLMetal: return "kDLMetal";
  case kDLROCM: return "kDLROCM";
  case kDLCUDAManaged: return "kDLCUDAManaged";
  default: return "unknown";
  }
}

const char *weir_dlpack_device_type_name(int type) { return device_type_name(type); }

weir_status weir_dlpack_device(weir_backend *backend, DLDevice *out) {
  if (!backend || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_dlpack_device: backend or out is NULL. Fix: pass both.");
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  weir_status status = weir_backend_device_info(backend, &info);
  if (status != WEIR_OK) return weir_fail_context(status, "weir_dlpack_device");
  if (info.dl_device_type != kDLCPU && info.dl_device_type != kDLCUDA &&
      info.dl_device_type != kDLVulkan)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_dlpack_device: backend %s (%s) reports DLPack device type %d (%s); "
                     "weir exchanges kDLCPU, kDLCUDA and kDLVulkan. Fix: set dl_device_type "
                     "in the backend's device info.",
                     info.backend_id, info.spec, (int)info.dl_device_type,
                     device_type_name(info.dl_device_type));
  out->device_type = (DLDeviceType)info.dl_device_type;
  out->device_id = info.dl_device_id;
  return WEIR_OK;
}

weir_status weir_dlpack_check_dtype(DLDataType dtype) {
  int ok_bits = dtype.bits == 8 || dtype.bits == 16 || dtype.bits == 32 || dtype.bits == 64;
  /* weir stores and moves elements, it does no arithmetic on them here, so
   * bfloat16 and bool (one byte, DLPack >= 0.8) travel as their bits. */
  int ok = dtype.lanes == 1 &&
           (((dtype.code == kDLInt || dtype.code == kDLUInt) && ok_bits) ||
            (dtype.code == kDLFloat && dtype.bits >= 16 && ok_bits) ||
            (dtype.code == kDLBfloat && dtype.bits == 16) ||
            (dtype.code == WEIR_DLPACK_BOOL && dtype.bits == 8));
  if (!ok)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "DLPack dtype (code %u, bits %u, lanes %u) is not supported. Fix: use "
                     "kDLInt/kDLUInt of 8, 16, 32 or 64 bits, kDLFloat of 16, 32 or 64 bits, "
                     "kDLBfloat of 16 bits or kDLBool of 8 bits, with lanes 1 (complex, "
                     "opaque and vector types are refused).",
                     (unsigned)dtype.code, (unsigned)dtype.bits, (unsigned)dtype.lanes);
  return WEIR_OK;
}
