/* DLPack interop: device naming, export/import round trip on the cpu backend
 * without copies, deleters called exactly once, refusals. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/residency/util.h"
#include "weir/interop.h"

static const DLDataType u32 = {kDLUInt, 32, 1};

START_TEST(devices_are_named_the_dlpack_way) {
  for (int id = 0; id < 3; ++id) {
    char spec[16];
    snprintf(spec, sizeof spec, "cpu:%d", id);
    weir_backend *cpu = util_open(spec);
    DLDevice device;
    CHECK_OK(weir_dlpack_device(cpu, &device));
    ck_assert_int_eq(device.device_type, kDLCPU);
    ck_assert_int_eq(device.device_id, id);
    weir_backend_close(cpu);
  }
  ck_assert_str_eq(weir_dlpack_device_type_name(kDLVulkan), "kDLVulkan");
}
END_TEST

/* A [4 x 16] u32 view at byte 64 of a chunk on cpu:1 holding i * 3 + 1. */
typedef struct exported {
  weir_backend *cpu;
  weir_chunk *chunk;
  weir_view view;
} exported;

static exported make_source(void) {
  exported e = {.cpu = util_open("cpu:1")};
  CHECK_OK(weir_chunk_allocate(e.cpu, 64 + 4 * 16 * 4, &e.chunk));
  uint32_t values[16 + 64];
  for (uint32_t i = 0; i < 16 + 64; ++i) values[i] = i * 3 + 1;
  util_upload(e.chunk, values, sizeof values);
  CHECK_OK(weir_view_make(e.chunk, 64, 4, 2, (uint64_t[]){4, 16}, &e.view));
  return e;
}

START_TEST(export_import_round_trip_without_copies) {
  exported e = make_source();
  DLManagedTensor *tensor = NULL;
  CHECK_OK(weir_dlpack_export(&e.view, u32, &tensor));
  ck_assert_uint_eq(weir_chunk_ref_count(e.chunk), 2);
  const DLTensor *t = &tensor->dl_tensor;
  void *base = NULL;
  CHECK_OK(weir_buffer_export_pointer(e.cpu, weir_chunk_buffer(e.chunk), &base));
  ck_assert_ptr_eq(t->data, base);
  ck_assert_uint_eq(t->byte_offset, 64);
  ck_assert_int_eq(t->device.device_type, kDLCPU);
  ck_assert_int_eq(t->device.device_id, 1);
  ck_assert_int_eq(t->ndim, 2);
  ck_assert_int_eq(t->shape[0], 4);
  ck_assert_int_eq(t->shape[1], 16);
  ck_assert_int_eq(t->strides[0], 16);
  ck_assert_int_eq(t->strides[1], 1);
  /* A consumer reads the resident memory in place. */
  const uint32_t *elements = (const uint32_t *)((const char *)t->data + t->byte_offset);
  for (uint32_t i = 0; i < 64; ++i) ck_assert_uint_eq(elements[i], (16 + i) * 3 + 1);

  weir_view imported;
  DLDataType dtype;
  uint64_t live = util_live_buffers(e.cpu);
  CHECK_OK(weir_dlpack_import(e.cpu, tensor, &imported, &dtype));
  ck_assert_uint_eq(util_live_buffers(e.cpu), live + 1);
  ck_assert_int_eq(dtype.code, kDLUInt);
  ck_assert_int_eq(weir_chunk_owns_memory(imported.chunk), 0);
  ck_assert_uint_eq(weir_chunk_bytes(imported.chunk), 4 * 16 * 4);
  ck_assert_uint_eq(imported.ndim, 2);
  ck_assert_uint_eq(imported.shape[1], 16);
  ck_assert_uint_eq(imported.strides[0], 16);
  void *imported_base = NULL;
  CHECK_OK(weir_buffer_export_pointer(e.cpu, weir_chunk_buffer(imported.chunk), &imported_base));
  ck_assert_ptr_eq(imported_base, (char *)base + 64);
  /* Write through the import, read through the original chunk. */
  uint32_t marker = 0xC0FFEE;
  uint64_t offset = 0;
  CHECK_OK(weir_view_element_offset(&imported, (uint64_t[]){2, 5}, &offset));
  weir_upload_item item = {weir_chunk_buffer(imported.chunk), offset, &marker, 4};
  CHECK_OK(weir_upload_at_many(e.cpu, &item, 1));
  uint32_t seen = 0;
  CHECK_OK(weir_view_element_offset(&e.view, (uint64_t[]){2, 5}, &offset));
  CHECK_OK(weir_download_range_into(e.cpu, weir_chunk_buffer(e.chunk), offset, 4, &seen));
  ck_assert_uint_eq(seen, marker);
  /* Releasing the import runs the export's deleter: back to one reference. */
  CHECK_OK(weir_chunk_release(imported.chunk));
  ck_assert_uint_eq(weir_chunk_ref_count(e.chunk), 1);
  ck_assert_uint_eq(util_live_buffers(e.cpu), live);
  CHECK_OK(weir_chunk_release(e.chunk));
  ck_assert_uint_eq(util_live_buffers(e.cpu), 0);
  weir_backend_close(e.cpu);
}
END_TEST

/* A partition block is strided (rows keep the full row pitch): it exports
 * and imports without a copy, and the import covers exactly its span. */
START_TEST(strided_partition_block_round_trip) {
  weir_backend *cpu = util_open("cpu:2");
  weir_chunk *chunk = NULL;
  CHECK_OK(weir_chunk_allocate(cpu, 3 * 100 * 4, &chunk));
  uint32_t values[300];
  for (uint32_t i = 0; i < 300; ++i) values[i] = i ^ 0x5A5Au;
  util_upload(chunk, values, sizeof values);
  weir_view all, block;
  CHECK_OK(weir_view_make(chunk, 0, 4, 2, (uint64_t[]){3, 100}, &all));
  CHECK_OK(weir_partition_view(&all, weir_partition_spec_default(3), 1, &block));
  DLManagedTensor *tensor = NULL;
  CHECK_OK(weir_dlpack_export(&block, u32, &tensor));
  const DLTensor *t = &tensor->dl_tensor;
  ck_assert_uint_eq(t->byte_offset, 64 * 4);
  ck_assert_int_eq(t->shape[1], 36);
  ck_assert_int_eq(t->strides[0], 100);
  const uint32_t *first = (const uint32_t *)((const char *)t->data + t->byte_offset);
  ck_assert_uint_eq(first[2 * 100 + 35], values[2 * 100 + 64 + 35]);
  weir_view imported;
  CHECK_OK(weir_dlpack_import(cpu, tensor, &imported, NULL));
  ck_assert_uint_eq(weir_chunk_bytes(imported.chunk), ((3 - 1) * 100 + 36) * 4);
  uint64_t offset = 0;
  uint32_t got = 0;
  CHECK_OK(weir_view_element_offset(&imported, (uint64_t[]){2, 35}, &offset));
  CHECK_OK(weir_download_range_into(cpu, weir_chunk_buffer(imported.chunk), offset, 4, &got));
  ck_assert_uint_eq(got, values[2 * 100 + 64 + 35]);
  CHECK_OK(weir_chunk_release(imported.chunk));
  ck_assert_uint_eq(weir_chunk_ref_count(chunk), 1);
  CHECK_OK(weir_chunk_release(chunk));
  weir_backend_close(cpu);
}
END_TEST

START_TEST(export_keeps_the_chunk_until_the_deleter) {
  exported e = make_source();
  DLManagedTensor *tensor = NULL;
  CHECK_OK(weir_dlpack_export(&e.view, u32, &tensor));
  CHECK_OK(weir_chunk_release(e.chunk)); /* the producer lets go first */
  ck_assert_uint_eq(util_live_buffers(e.cpu), 1);
  const uint32_t *elements =
      (const uint32_t *)((const char *)tensor->dl_tensor.data + tensor->dl_tensor.byte_offset);
  ck_assert_uint_eq(elements[63], (16 + 63) * 3 + 1); /* still readable (ASan checks) */
  tensor->deleter(tensor);
  ck_assert_uint_eq(util_live_buffers(e.cpu), 0);
  weir_backend_close(e.cpu);
}
END_TEST

/* A foreign library's tensor: host memory and a deleter that counts. */
typedef struct foreign {
  DLManagedTensor managed;
  int64_t shape[1];
  float data[10];
  int deleted;
} foreign;

static void foreign_deleter(DLManagedTensor *self) { ((foreign *)self->manager_ctx)->deleted++; }

static void make_foreign(foreign *f, int device_id) {
  memset(f, 0, sizeof *f);
  for (int i = 0; i < 10; ++i) f->data[i] = (float)i * 0.5f;
  f->shape[0] = 10;
  f->managed.dl_tensor = (DLTensor){.data = f->data, .device = {kDLCPU, device_id}, .ndim = 1,
                                    .dtype = {kDLFloat, 32, 1}, .shape = f->shape};
  f->managed.manager_ctx = f;
  f->managed.deleter = foreign_deleter;
}

START_TEST(import_calls_the_deleter_exactly_once) {
  weir_backend *cpu = util_open("cpu:0");
  foreign f;
  make_foreign(&f, 0);
  weir_view view;
  CHECK_OK(weir_dlpack_import(cpu, &f.managed, &view, NULL));
  ck_assert_uint_eq(view.strides[0], 1); /* NULL strides: compact */
  float got[10];
  CHECK_OK(weir_download_into(cpu, weir_chunk_buffer(view.chunk), got, sizeof got));
  ck_assert_int_eq(memcmp(got, f.data, sizeof got), 0);
  weir_chunk_retain(view.chunk);
  weir_chunk_retain(view.chunk);
  CHECK_OK(weir_chunk_release(view.chunk));
  CHECK_OK(weir_chunk_release(view.chunk));
  ck_assert_int_eq(f.deleted, 0);
  CHECK_OK(weir_chunk_release(view.chunk));
  ck_assert_int_eq(f.deleted, 1);
  ck_assert_uint_eq(util_live_buffers(cpu), 0);
  ck_assert_float_eq(f.data[9], 4.5f); /* weir never freed nor touched it */
  weir_backend_close(cpu);
}
END_TEST

/* Host memory is one address space: a host tensor, whatever id its producer
 * gave it ((kDLCPU, 0) from NumPy or PyTorch), imports on every cpu:N. */
START_TEST(host_tensor_imports_on_every_cpu_instance) {
  for (int n = 0; n < 8; ++n) {
    char spec[8];
    snprintf(spec, sizeof spec, "cpu:%d", n);
    weir_backend *cpu = util_open(spec);
    for (int id = 0; id < 8; id += 5) {
      foreign f;
      make_foreign(&f, id);
      weir_view view;
      CHECK_OK(weir_dlpack_import(cpu, &f.managed, &view, NULL));
      float got[10];
      CHECK_OK(weir_download_into(cpu, weir_chunk_buffer(view.chunk), got, sizeof got));
      ck_assert_int_eq(memcmp(got, f.data, sizeof got), 0);
      CHECK_OK(weir_chunk_release(view.chunk));
      ck_assert_int_eq(f.deleted, 1);
    }
    ck_assert_uint_eq(util_live_buffers(cpu), 0);
    weir_backend_close(cpu);
  }
}
END_TEST

/* bfloat16 and bool travel as their bits (weir does no arithmetic on them). */
START_TEST(bfloat16_and_bool_are_carried) {
  weir_backend *cpu = util_open("cpu:3");
  static const DLDataType carried[] = {{kDLBfloat, 16, 1}, {WEIR_DLPACK_BOOL, 8, 1}};
  for (size_t i = 0; i < 2; ++i) {
    CHECK_OK(weir_dlpack_check_dtype(carried[i]));
    foreign f;
    make_foreign(&f, 0);
    f.managed.dl_tensor.dtype = carried[i];
    weir_view view;
    DLDataType got;
    CHECK_OK(weir_dlpack_import(cpu, &f.managed, &view, &got));
    ck_assert_uint_eq(view.element_bytes, carried[i].bits / 8u);
    ck_assert_uint_eq(got.code, carried[i].code);
    DLManagedTensor *back = NULL;
    CHECK_OK(weir_dlpack_export(&view, carried[i], &back));
    ck_assert_uint_eq(back->dl_tensor.dtype.code, carried[i].code);
    back->deleter(back);
    CHECK_OK(weir_chunk_release(view.chunk));
    ck_assert_int_eq(f.deleted, 1);
  }
  weir_backend_close(cpu);
}
END_TEST

START_TEST(import_refuses_unsupported_tensors) {
  weir_backend *cpu = util_open("cpu:0");
  foreign f;
  weir_view view;
  static const DLDataType bad_types[] = {
      {kDLBfloat, 32, 1}, {kDLComplex, 64, 1}, {kDLFloat, 32, 4},
      {kDLInt, 12, 1},    {kDLOpaqueHandle, 64, 1}, {kDLFloat, 8, 1},
      {WEIR_DLPACK_BOOL, 16, 1}};
  for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; ++i) {
    make_foreign(&f, 0);
    f.managed.dl_tensor.dtype = bad_types[i];
    CHECK_FAILS(weir_dlpack_import(cpu, &f.managed, &view, NULL), WEIR_ERR_UNSUPPORTED);
  }
  make_foreign(&f, 0);
  f.managed.dl_tensor.device = (DLDevice){kDLCUDA, 0};
  CHECK_FAILS(weir_dlpack_import(cpu, &f.managed, &view, NULL), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "kDLCUDA"));
  make_foreign(&f, 0);
  f.managed.dl_tensor.device = (DLDevice){kDLCUDA, 2}; /* device memory: type and id must match */
  CHECK_FAILS(weir_dlpack_import(cpu, &f.managed, &view, NULL), WEIR_ERR_UNSUPPORTED);
  make_foreign(&f, 0);
  int64_t negative[1] = {-1};
  f.managed.dl_tensor.strides = negative;
  CHECK_FAILS(weir_dlpack_import(cpu, &f.managed, &view, NULL), WEIR_ERR_UNSUPPORTED);
  make_foreign(&f, 0);
  f.managed.dl_tensor.ndim = WEIR_VIEW_MAX_DIMS + 1;
  CHECK_FAILS(weir_dlpack_import(cpu, &f.managed, &view, NULL), WEIR_ERR_UNSUPPORTED);
  make_foreign(&f, 0);
  f.shape[0] = 0;
  CHECK_FAILS(weir_dlpack_import(cpu, &f.managed, &view, NULL), WEIR_ERR_UNSUPPORTED);
  ck_assert_int_eq(f.deleted, 0); /* a refused tensor stays the caller's */
  ck_assert_uint_eq(util_live_buffers(cpu), 0);
  weir_backend_close(cpu);
}
END_TEST

START_TEST(export_refuses_unsupported_requests) {
  exported e = make_source();
  DLManagedTensor *tensor = NULL;
  CHECK_FAILS(weir_dlpack_export(&e.view, (DLDataType){kDLComplex, 32, 1}, &tensor),
              WEIR_ERR_UNSUPPORTED);
  CHECK_FAILS(weir_dlpack_export(&e.view, (DLDataType){kDLBfloat, 16, 1}, &tensor),
              WEIR_ERR_INVALID_ARGUMENT); /* 2-byte type on 4-byte elements */
  CHECK_FAILS(weir_dlpack_export(&e.view, (DLDataType){kDLUInt, 64, 1}, &tensor),
              WEIR_ERR_INVALID_ARGUMENT); /* 8-byte type on 4-byte elements */
  weir_view outside = e.view;
  outside.byte_offset = 128; /* runs past the chunk */
  CHECK_FAILS(weir_dlpack_export(&outside, u32, &tensor), WEIR_ERR_OUT_OF_RANGE);
  ck_assert_ptr_null(tensor);
  ck_assert_uint_eq(weir_chunk_ref_count(e.chunk), 1);
  weir_backend *vulkan = NULL;
  if (weir_backend_open("vulkan", &vulkan) == WEIR_OK) {
    weir_chunk *chunk = NULL;
    CHECK_OK(weir_chunk_allocate(vulkan, 64, &chunk));
    weir_view view;
    CHECK_OK(weir_view_make(chunk, 0, 4, 1, (uint64_t[]){16}, &view));
    CHECK_FAILS(weir_dlpack_export(&view, u32, &tensor), WEIR_ERR_UNSUPPORTED);
    CHECK_OK(weir_chunk_release(chunk));
    weir_backend_close(vulkan);
  } else {
    printf("SKIP residency:dlpack export on vulkan: %s\n", weir_last_error());
  }
  CHECK_OK(weir_chunk_release(e.chunk));
  weir_backend_close(e.cpu);
}
END_TEST

Suite *dlpack_suite(void) {
  Suite *suite = suite_create("residency.dlpack");
  TCase *tc = tcase_create("dlpack");
  tcase_add_test(tc, devices_are_named_the_dlpack_way);
  tcase_add_test(tc, export_import_round_trip_without_copies);
  tcase_add_test(tc, strided_partition_block_round_trip);
  tcase_add_test(tc, export_keeps_the_chunk_until_the_deleter);
  tcase_add_test(tc, import_calls_the_deleter_exactly_once);
  tcase_add_test(tc, host_tensor_imports_on_every_cpu_instance);
  tcase_add_test(tc, bfloat16_and_bool_are_carried);
  tcase_add_test(tc, import_refuses_unsupported_tensors);
  tcase_add_test(tc, export_refuses_unsupported_requests);
  suite_add_tcase(suite, tc);
  return suite;
}
