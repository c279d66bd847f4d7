/* Build-time check of the CUDA programs embedded in libweir: the fatbin that
 * every built-in program's cuda_image points at must hold SASS (an ELF
 * cubin) for sm_80 and sm_90 and PTX for compute_90, each containing every
 * built-in program's entry point. Needs no GPU and no cuobjdump (not in the
 * toolkit here): the fatbin container is parsed directly, and each payload
 * is validated on its own terms (ELF header and section names of the cubin,
 * the PTX text), so a misread container fails instead of passing.
 *
 * Container layout (little-endian), as produced by nvcc/fatbinary:
 *   header: u32 magic 0xBA55ED50, u16 version 1, u16 header_size, u64 body_size
 *   each entry: u16 kind (1 PTX, 2 ELF), u16 version, u32 header_size,
 *     u64 payload_size, ..., u32 sm_arch at byte 28, u64 flags at byte 40;
 *     the payload follows the entry header.
 * The build passes -no-compress so PTX is plain text. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/cuda/weir_cuda_abi.h"
#include "weir/program.h"
#include "tests/check_run.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define KIND_PTX 1
#define KIND_ELF 2
#define EM_CUDA 190
#define MAX_ENTRIES 64

typedef struct fat_entry {
  uint16_t kind;
  uint32_t arch;
  const unsigned char *payload;
  uint64_t bytes;
} fat_entry;

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* Splits the container into entries; fails the test on any inconsistency. */
static size_t parse_fatbin(const unsigned char *img, size_t size, fat_entry *out) {
  ck_assert_uint_ge(size, 16);
  ck_assert_uint_eq(rd32(img), FATBIN_MAGIC);
  ck_assert_uint_eq(rd16(img + 4), 1);
  uint64_t header = rd16(img + 6), body = rd64(img + 8);
  ck_assert_uint_le(header + body, size);
  size_t n = 0;
  for (uint64_t off = header; off < header + body; ++n) {
    ck_assert_uint_lt(n, MAX_ENTRIES);
    ck_assert_uint_le(off + 48, header + body);
    const unsigned char *e = img + off;
    uint32_t entry_header = rd32(e + 4);
    uint64_t payload = rd64(e + 8);
    ck_assert_uint_ge(entry_header, 48);
    ck_assert_uint_le(off + entry_header + payload, header + body);
    out[n] = (fat_entry){rd16(e), rd32(e + 28), e + entry_header, payload};
    off += entry_header + payload;
  }
  return n;
}

/* Does the cubin have a section named ".text.<entry>" (one per kernel)? */
static int elf_has_kernel(const unsigned char *elf, uint64_t bytes, const char *entry) {
  ck_assert_uint_ge(bytes, 64);
  ck_assert_mem_eq(elf, "\x7f" "ELF", 4);
  ck_assert_uint_eq(elf[4], 2); /* ELFCLASS64 */
  ck_assert_uint_eq(rd16(elf + 18), EM_CUDA);
  uint64_t shoff = rd64(elf + 40);
  uint16_t shentsize = rd16(elf + 58), shnum = rd16(elf + 60), shstrndx = rd16(elf + 62);
  ck_assert_uint_le(shoff + (uint64_t)shentsize * shnum, bytes);
  ck_assert_uint_lt(shstrndx, shnum);
  const unsigned char *strhdr = elf + shoff + (uint64_t)shentsize * shstrndx;
  uint64_t stroff = rd64(strhdr + 24), strsize = rd64(strhdr + 32);
  ck_assert_uint_le(stroff + strsize, bytes);
  char want[160];
  snprintf(want, sizeof want, ".text.%s", entry);
  for (uint16_t i = 0; i < shnum; ++i) {
    uint32_t name = rd32(elf + shoff + (uint64_t)shentsize * i);
    if (name >= strsize) continue;
    const char *s = (const char *)elf + stroff + name;
    if (strnlen(s, strsize - name) < strsize - name && strcmp(s, want) == 0) return 1;
  }
  return 0;
}

static int text_has(const unsigned char *text, uint64_t bytes, const char *needle) {
  size_t n = strlen(needle);
  for (uint64_t i = 0; i + n <= bytes; ++i)
    if (memcmp(text + i, needle, n) == 0) return 1;
  return 0;
}

/* Does the PTX declare `.entry <entry>(` for a compute_90 target? */
static int ptx_has_kernel(const unsigned char *ptx, uint64_t bytes, const char *entry) {
  ck_assert_msg(text_has(ptx, bytes, ".target sm_90"),
                "PTX entry is not plain compute_90 PTX (compressed? the build must pass "
                "-no-compress)");
  char want[160];
  snprintf(want, sizeof want, ".entry %s(", entry);
  return text_has(ptx, bytes, want);
}

START_TEST(builtin_programs_have_sm80_sm90_sass_and_compute90_ptx) {
  size_t programs_with_cuda = 0;
  for (size_t i = 0; i < weir_builtin_program_count(); ++i) {
    const weir_program *p = weir_builtin_program_at(i);
    if (!p->cuda_image) continue;
    programs_with_cuda++;
    ck_assert_ptr_nonnull(p->cuda_entry);
    fat_entry entries[MAX_ENTRIES];
    size_t n = parse_fatbin(p->cuda_image, p->cuda_image_bytes, entries);
    int sm80 = 0, sm90 = 0, ptx90 = 0;
    for (size_t k = 0; k < n; ++k) {
      const fat_entry *e = &entries[k];
      if (e->kind == KIND_ELF && (e->arch == 80 || e->arch == 90)) {
        ck_assert_msg(elf_has_kernel(e->payload, e->bytes, p->cuda_entry),
                      "sm_%u cubin lacks kernel %s (program %s)", e->arch, p->cuda_entry, p->name);
        if (e->arch == 80) sm80 = 1;
        if (e->arch == 90) sm90 = 1;
      } else if (e->kind == KIND_PTX && e->arch == 90) {
        ck_assert_msg(ptx_has_kernel(e->payload, e->bytes, p->cuda_entry),
                      "compute_90 PTX lacks .entry %s (program %s)", p->cuda_entry, p->name);
        ptx90 = 1;
      }
    }
    ck_assert_msg(sm80 && sm90 && ptx90,
                  "program %s: fatbin of %zu bytes has %zu entries; sm_80 SASS %s, sm_90 SASS %s, "
                  "compute_90 PTX %s",
                  p->name, p->cuda_image_bytes, n, sm80 ? "yes" : "NO", sm90 ? "yes" : "NO",
                  ptx90 ? "yes" : "NO");
  }
  /* noop, fill_u32, copy_u32, add_u32, counter_u32, atomic_add_u32 at least. */
  ck_assert_uint_ge(programs_with_cuda, 6);
}
END_TEST

START_TEST(fatbin_lists_its_entries) {
  const weir_program *p = weir_builtin_program("fill_u32");
  ck_assert_ptr_nonnull(p);
  ck_assert_ptr_nonnull(p->cuda_image);
  fat_entry entries[MAX_ENTRIES];
  size_t n = parse_fatbin(p->cuda_image, p->cuda_image_bytes, entries);
  /* sm_80 ELF, sm_90 ELF, compute_90 PTX: exactly the -gencode list. */
  ck_assert_uint_eq(n, 3);
  for (size_t k = 0; k < n; ++k)
    printf("fatbin entry %zu: %s arch %u, %llu bytes\n", k,
           entries[k].kind == KIND_ELF ? "ELF (SASS)" : entries[k].kind == KIND_PTX ? "PTX" : "?",
           entries[k].arch, (unsigned long long)entries[k].bytes);
}
END_TEST

START_TEST(abi_struct_layout) {
  /* The device code reads these offsets: a change must bump the ABI version.
   * The figures below are those of ABI version 2 (32 bindings). */
  ck_assert_uint_eq(WEIR_CUDA_ABI_VERSION, 2);
  ck_assert_uint_eq(sizeof(weir_cuda_args), 672);
  ck_assert_uint_eq(sizeof(weir_cuda_args), WEIR_CUDA_ARGS_BYTES);
  ck_assert_uint_eq(offsetof(weir_cuda_args, binding_bytes), 256);
  ck_assert_uint_eq(offsetof(weir_cuda_args, push), 512);
  ck_assert_uint_eq(offsetof(weir_cuda_args, push) % 8, 0);
  ck_assert_uint_eq(offsetof(weir_cuda_args, grid), 648);
  ck_assert_uint_eq(offsetof(weir_cuda_args, workgroup_size), 660);
}
END_TEST

int main(void) {
  Suite *s = suite_create("cuda_fatbin");
  TCase *tc = tcase_create("fatbin");
  tcase_add_test(tc, builtin_programs_have_sm80_sm90_sass_and_compute90_ptx);
  tcase_add_test(tc, fatbin_lists_its_entries);
  tcase_add_test(tc, abi_struct_layout);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  return weir_check_run(sr);
}
