/* The collectives conformance suite (tests/collectives) over the NCCL
 * transport: local groups of CUDA backends, one NCCL communicator each.
 * Under CTest's collectives.nccl-mock these are mock devices (mock CUDA
 * driver, mock NCCL); under collectives.nccl the real ones, where layouts
 * needing more devices than the machine has are skipped with the reason. */
#include <stdio.h>

#include "tests/collectives/fixture.h"
#include "weir/nccl.h"

typedef struct nccl_layout {
  const char *name;
  uint32_t count;
  const char *specs[4];
} nccl_layout;

static const nccl_layout layouts[] = {
    {"nccl cuda:0..3", 4, {"cuda:0", "cuda:1", "cuda:2", "cuda:3"}},
    {"nccl cuda:2,cuda:0,cuda:3", 3, {"cuda:2", "cuda:0", "cuda:3"}},
    {"nccl cuda:0,cuda:1", 2, {"cuda:0", "cuda:1"}},
    {"nccl one member", 1, {"cuda:0"}},
};

int fixture_variants(void) { return (int)(sizeof layouts / sizeof layouts[0]); }

int fixture_open(int variant, coll_fixture *f) {
  const nccl_layout *l = &layouts[variant];
  *f = (coll_fixture){.size = l->count, .first = 0, .local = l->count, .name = l->name};
  for (uint32_t i = 0; i < l->count; ++i) {
    if (weir_backend_open(l->specs[i], &f->backends[i]) == WEIR_OK) continue;
    fprintf(stderr, "%s: skipped, %s is not available: %s\n", l->name, l->specs[i],
            weir_last_error());
    fixture_close(f);
    return 0;
  }
  CHECK_OK(weir_nccl_transport_create(f->backends, l->count, NULL, &f->transport));
  CHECK_OK(weir_group_create_local(f->transport, f->backends, l->count, &f->group));
  ck_assert_str_eq(weir_transport_name(f->transport), "nccl");
  return 1;
}

void fixture_close(coll_fixture *f) {
  weir_group_destroy(f->group);
  weir_transport_destroy(f->transport);
  for (uint32_t i = 0; i < f->local; ++i) weir_backend_close(f->backends[i]);
  *f = (coll_fixture){0};
}
