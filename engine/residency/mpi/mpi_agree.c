/* Agreement between ranks: one MPI_Allreduce (MAX over int64) carries the
 * lowest failing rank and, as +v and -v, the max and min of each field of
 * the call's signature; when a rank failed, one MPI_Bcast from it carries its
 * status and message. Every rank then returns the same status and message,
 * so none is left waiting in an exchange the others skipped. */
#include <stdio.h>
#include <string.h>

#include "engine/residency/mpi/mpi_internal.h"

enum { SIG_FIELDS = 6, AGREE_MESSAGE_BYTES = 1536 };

static const char *const sig_names[SIG_FIELDS] = {"the collective (kind)", "root", "bytes",
                                                  "count", "dtype", "op"};

weir_status weir_mpi_check(int rc, const char *call) {
  if (rc == MPI_SUCCESS) return WEIR_OK;
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) snprintf(text, sizeof text, "?");
  return weir_fail(WEIR_ERR_DEVICE,
                   "%s failed with MPI error %d (%s). Fix: see the MPI job's output; a rank "
                   "may have died or the network failed.",
                   call, rc, text);
}

/* kind -1 means "no collective" (weir_group_agree, or after an exchange). */
static void signature(const weir_collective *c, int64_t sig[SIG_FIELDS]) {
  if (!c) {
    sig[0] = -1;
    for (int i = 1; i < SIG_FIELDS; ++i) sig[i] = 0;
    return;
  }
  const uint64_t raw[SIG_FIELDS] = {(uint64_t)c->kind, c->root,          c->bytes,
                                    c->count,          (uint64_t)c->dtype, (uint64_t)c->op};
  for (int i = 0; i < SIG_FIELDS; ++i) sig[i] = raw[i] > INT64_MAX ? INT64_MAX : (int64_t)raw[i];
}

/* Everyone learns the status and message of rank `failed`. */
static weir_status spread_failure(mpi_transport *t, int failed, weir_status local) {
  struct {
    int32_t status;
    char message[AGREE_MESSAGE_BYTES];
  } note = {(int32_t)local, ""};
  if (t->rank == failed) snprintf(note.message, sizeof note.message, "%s", weir_last_error());
  WEIR_TRY(weir_mpi_check(MPI_Bcast(&note, (int)sizeof note, MPI_BYTE, failed, t->comm),
                          "weir_group_agree: MPI_Bcast of the failure"));
  note.message[sizeof note.message - 1] = '\0';
  return weir_fail((weir_status)note.status, "rank %d of %d: %s", failed, t->size, note.message);
}

static weir_status signature_mismatch(const int64_t *max, const int64_t *neg_min,
                                      const weir_collective *call) {
  for (int i = 0; i < SIG_FIELDS; ++i)
    if (max[i] != -neg_min[i])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "weir_group_agree (before %s): the ranks disagree on %s: from %lld to "
                       "%lld (kind -1 is weir_group_agree). Fix: call the same collective "
                       "with the same root, bytes, count, dtype and op on every rank.",
                       call ? weir_collective_kind_name(call->kind) : "weir_group_agree",
                       sig_names[i], (long long)-neg_min[i], (long long)max[i]);
  return WEIR_OK;
}

weir_status weir_mpi_agree(weir_transport *self, weir_group *group, weir_status local,
                           const weir_collective *call) {
  (void)group;
  mpi_transport *t = (mpi_transport *)self;
  int64_t sig[SIG_FIELDS], v[1 + 2 * SIG_FIELDS];
  signature(call, sig);
  v[0] = local != WEIR_OK ? (int64_t)t->size - t->rank : 0; /* max: the lowest failing rank */
  for (int i = 0; i < SIG_FIELDS; ++i) {
    v[1 + i] = sig[i];
    v[1 + SIG_FIELDS + i] = -sig[i];
  }
  WEIR_TRY(weir_mpi_check(MPI_Allreduce(MPI_IN_PLACE, v, 1 + 2 * SIG_FIELDS, MPI_INT64_T, MPI_MAX,
                                        t->comm),
                          "weir_group_agree: MPI_Allreduce of the statuses"));
  if (v[0] > 0) return spread_failure(t, (int)(t->size - v[0]), local);
  return signature_mismatch(v + 1, v + 1 + SIG_FIELDS, call);
}
