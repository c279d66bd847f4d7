/* The conformance suite of the collectives (conformance.c) runs against a
 * fixture: a group and this process's members. fixture_local.c gives local
 * groups over the stream transport (several layouts, one per variant);
 * fixture_mpi.c gives the MPI group of every rank of MPI_COMM_WORLD. The
 * same tests run against both, one executable each. */
#ifndef WEIR_TESTS_COLLECTIVES_FIXTURE_H
#define WEIR_TESTS_COLLECTIVES_FIXTURE_H

#include <check.h>
#include <string.h>

#include "tests/residency/util.h" /* CHECK_OK, CHECK_FAILS */
#include "weir/residency.h"

typedef struct coll_fixture {
  weir_group *group;
  weir_transport *transport;
  weir_backend *backends[WEIR_GROUP_MAX_LOCAL]; /* this process's members */
  uint32_t size, first, local;                  /* group size, first local rank, local count */
  const char *name;
} coll_fixture;

/* How many layouts the fixture offers (the tests loop over them). */
int fixture_variants(void);
/* Opens layout `variant`; returns 0 (and fails nothing) when it is not
 * available here, e.g. no Vulkan device. */
int fixture_open(int variant, coll_fixture *f);
void fixture_close(coll_fixture *f);
/* Opens a backend or fails the test with the reason. */
weir_backend *fixture_backend(const char *spec);

Suite *collectives_suite(const char *name);

/* A check every process of the group takes part in: when it fails on any
 * rank, it fails on all of them (with that rank's message), so that no rank
 * runs ahead into the next collective while another stopped. */
#define CHECK_AGREED(f, ok, ...)                                                            \
  do {                                                                                      \
    weir_status agreed_ = (ok) ? WEIR_OK : weir_fail(WEIR_ERR_INTERNAL, __VA_ARGS__);       \
    agreed_ = weir_group_agree((f)->group, agreed_);                                        \
    ck_assert_msg(agreed_ == WEIR_OK, "%s", weir_last_error());                             \
  } while (0)

#endif
