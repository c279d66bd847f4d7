/* A clone helper that guards against copying onto itself (bluez's
 * l2cap_frame_clone): `if (frame != source) { copy every field }`. Inlined
 * at -O2 into a caller whose `frame` is a fresh local, the guard compares
 * the local's address with the caller's parameter: never equal (the local
 * did not exist when the parameter was computed), so the path that skips
 * the copy is not there (prepare: fold.c). */
#include <stdio.h>
#include <string.h>

struct frame { int index; const unsigned char *data; unsigned short size; };

static inline void clone_size(struct frame *frame, const struct frame *source, unsigned short size) {
  if (frame != source) {
    frame->index = source->index;
    frame->data = source->data;
    frame->size = size;
  }
}

void (*handler)(const struct frame *);

void notify(const struct frame *frame, unsigned short len) {
  struct frame clone;
  if (len != frame->size) {
    clone_size(&clone, frame, frame->size);
    clone.size = len;
    frame = &clone;
  }
  printf("%d %p\n", frame->index, (const void *)frame->data); /* EXPECT-NOT weir-uninit */
  if (handler) handler(frame);
}

void notify_wrong(const struct frame *frame, unsigned short len) {
  struct frame clone;
  clone.size = len;
  if (len != frame->size) frame = &clone; /* forgot to copy: real */
  printf("%d\n", frame->index); /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  unsigned char bytes[4] = {1, 2, 3, 4};
  struct frame f = {argc, bytes, 4};
  notify(&f, (unsigned short)argc);
  notify_wrong(&f, (unsigned short)argc);
  return 0;
}
