/* An error code decides what a function returns: `len` is set only on the
 * path where `error` ends 0, and read only there (OVS's stream-replay
 * receive). At -O0 the join block calls `unlock()` before the test; at -O2
 * the read of `len` is speculated in front of a `select`. Each path that
 * sets the error to a constant gets its own copy of the join (prepare:
 * thread.c, tail.c), so the read is not on it. The last function reads
 * `n` on the failing path too: a real finding. (clang -O2 threads these
 * joins itself when the callee is in the same file: OVS's -O2 shape is
 * checked by tests/llvm/test_module.c.) */
#include <errno.h>
#include <stdio.h>

/* defined elsewhere (a mutex): the optimiser cannot move code across them */
void lock(void);
void unlock(void);

__attribute__((noinline)) static int read_len(FILE *f, int *len) {
  if (fread(len, sizeof *len, 1, f) != 1) return EINVAL;
  return 0;
}

long receive(FILE *f, int ready) {
  int error, len;
  lock();
  if (!ready) {
    error = EAGAIN;
    goto out;
  }
  error = read_len(f, &len);
out:
  unlock();
  return error ? -error : len; /* EXPECT-NOT weir-uninit */
}

long receive_plain(FILE *f, int ready) {
  int error, len;
  if (!ready) {
    error = EAGAIN;
    goto out;
  }
  error = read_len(f, &len);
out:
  return error ? -error : len; /* EXPECT-NOT weir-uninit */
}

long receive_wrong(FILE *f, int ready) {
  int error, n;
  lock();
  if (!ready) {
    error = EAGAIN;
    goto out;
  }
  error = read_len(f, &n);
out:
  unlock();
  /* -O2 folds the unset n into 0 on the busy path (undefined behaviour) */
  return error ? (long)n - error : n; /* EXPECT-O0 weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  return (int)(receive(stdin, argc > 1) + receive_plain(stdin, argc > 2) + receive_wrong(stdin, argc > 3));
}
