#include <pthread.h>
#include <stdio.h>

struct counter {
  pthread_mutex_t lock;
  long value;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int table[16];

__attribute__((noinline)) static void add_all(struct counter *c, const int *v, int n) {
  for (int i = 0; i < n; ++i) {
    pthread_mutex_lock(&c->lock); /* EXPECT-NOT weir-typestate */
    c->value += v[i];
    pthread_mutex_unlock(&c->lock); /* EXPECT-NOT weir-typestate */
  }
}

__attribute__((noinline)) static int try_bump(struct counter *c) {
  if (pthread_mutex_trylock(&c->lock) != 0) return 0;
  c->value++;
  pthread_mutex_unlock(&c->lock); /* EXPECT-NOT weir-typestate */
  return 1;
}

__attribute__((noinline)) static int store(int k, int v) {
  pthread_mutex_lock(&table_lock);
  if (k < 0 || k >= 16) return -1; /* the error path keeps the lock held */
  table[k] = v;
  pthread_mutex_unlock(&table_lock);
  return 0;
}

__attribute__((noinline)) static void release_twice(void) {
  pthread_mutex_lock(&table_lock); /* EXPECT weir-typestate-double-lock */
  table[0] = 0;
  pthread_mutex_unlock(&table_lock);
  pthread_mutex_unlock(&table_lock); /* EXPECT weir-typestate-unlock-without-lock */
}

int main(int argc, char **argv) {
  struct counter c;
  pthread_mutex_init(&c.lock, NULL);
  int v[3] = {1, 2, argc};
  add_all(&c, v, 3);
  try_bump(&c);
  if (store(argc, 1) != 0) fprintf(stderr, "bad index\n");
  release_twice();
  pthread_mutex_destroy(&c.lock);
  printf("%ld %s\n", c.value, argv[0]);
  return 0;
}
