/* The MPI group: one member per rank of MPI_COMM_WORLD, each on "cpu". */
#include "tests/collectives/fixture.h"
#include "weir/mpi/transport.h"

int fixture_variants(void) { return 1; }

int fixture_open(int variant, coll_fixture *f) {
  (void)variant;
  *f = (coll_fixture){.local = 1, .name = "mpi"};
  f->backends[0] = fixture_backend("cpu");
  CHECK_OK(weir_mpi_transport_create(MPI_COMM_WORLD, &f->transport));
  ck_assert_str_eq(weir_transport_name(f->transport), "mpi");
  CHECK_OK(weir_mpi_group_create(f->transport, f->backends[0], &f->group));
  f->size = weir_group_size(f->group);
  f->first = weir_group_first_local(f->group);
  ck_assert_uint_eq(weir_group_local_count(f->group), 1);
  return 1;
}

void fixture_close(coll_fixture *f) {
  weir_group_destroy(f->group);
  weir_transport_destroy(f->transport);
  weir_backend_close(f->backends[0]);
  *f = (coll_fixture){0};
}
