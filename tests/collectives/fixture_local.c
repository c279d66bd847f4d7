/* Local groups over the stream transport: every member in this process. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/collectives/fixture.h"

typedef struct local_layout {
  const char *name;
  uint32_t count;
  const char *specs[4];
  uint64_t staging_bytes; /* 0: default; UINT64_MAX: the plain transport below */
} local_layout;

/* A transport that implements no collective of its own (a stream transport
 * behind a table without `collectives`), so that weir's generic ops run,
 * allreduce's host reduction with its own scratch included. */
typedef struct plain_transport {
  weir_transport base;
  weir_transport *inner;
} plain_transport;

static weir_status plain_copy(weir_transport *self, weir_chunk *dst, uint64_t dst_offset,
                              weir_chunk *src, uint64_t src_offset, uint64_t bytes) {
  return weir_transport_copy(((plain_transport *)self)->inner, dst, dst_offset, src, src_offset,
                             bytes);
}

/* The transfer names the inner transport, so waits go straight there. */
static weir_status plain_copy_async(weir_transport *self, weir_chunk *dst, uint64_t dst_offset,
                                    weir_chunk *src, uint64_t src_offset, uint64_t bytes,
                                    weir_transfer *out) {
  return weir_transport_copy_async(((plain_transport *)self)->inner, dst, dst_offset, src,
                                   src_offset, bytes, out);
}

static weir_status plain_wait(weir_transport *self, const weir_transfer *transfer) {
  (void)self;
  return weir_transport_wait(transfer);
}

static void plain_destroy(weir_transport *self) {
  weir_transport_destroy(((plain_transport *)self)->inner);
  free(self);
}

static const weir_transport_ops plain_ops = {.name = "plain", .copy = plain_copy,
                                             .copy_async = plain_copy_async, .wait = plain_wait,
                                             .destroy = plain_destroy};

static weir_transport *plain_create(void) {
  plain_transport *t = calloc(1, sizeof *t);
  ck_assert_ptr_nonnull(t);
  t->base.ops = &plain_ops;
  CHECK_OK(weir_stream_transport_create(NULL, &t->inner));
  return &t->base;
}

/* 1: the same instance twice (device copies) and a 64-byte staging buffer,
 * so that staged copies and the host reduction go in many pieces. */
static const local_layout layouts[] = {
    {"local cpu:0..3", 4, {"cpu:0", "cpu:1", "cpu:2", "cpu:3"}, 0},
    {"local cpu:1,cpu:1,cpu:2 staging 64", 3, {"cpu:1", "cpu:1", "cpu:2"}, 64},
    {"local one member", 1, {"cpu:0"}, 0},
    {"local cpu:0,vulkan,cpu:2", 3, {"cpu:0", "vulkan", "cpu:2"}, 0},
    {"local cpu:4..6 generic ops", 3, {"cpu:4", "cpu:5", "cpu:6"}, UINT64_MAX},
};

int fixture_variants(void) { return (int)(sizeof layouts / sizeof layouts[0]); }

int fixture_open(int variant, coll_fixture *f) {
  const local_layout *l = &layouts[variant];
  *f = (coll_fixture){.size = l->count, .first = 0, .local = l->count, .name = l->name};
  for (uint32_t i = 0; i < l->count; ++i) {
    if (weir_backend_open(l->specs[i], &f->backends[i]) == WEIR_OK) continue;
    fprintf(stderr, "%s: skipped, %s is not available: %s\n", l->name, l->specs[i],
            weir_last_error());
    fixture_close(f);
    return 0;
  }
  weir_stream_transport_options options = {.staging_bytes = l->staging_bytes};
  if (l->staging_bytes == UINT64_MAX) f->transport = plain_create();
  else CHECK_OK(weir_stream_transport_create(&options, &f->transport));
  CHECK_OK(weir_group_create_local(f->transport, f->backends, l->count, &f->group));
  ck_assert_uint_eq(weir_group_size(f->group), l->count);
  ck_assert_uint_eq(weir_group_local_count(f->group), l->count);
  return 1;
}

void fixture_close(coll_fixture *f) {
  weir_group_destroy(f->group);
  weir_transport_destroy(f->transport);
  for (uint32_t i = 0; i < f->local; ++i) weir_backend_close(f->backends[i]);
  *f = (coll_fixture){0};
}
