/* The host sink (see ifds_sink.h): a workgroup batches twice. Candidates
 * are inserted a batch at a time with the table slot of a later candidate
 * prefetched (random probes into a large table overlap instead of stalling
 * one by one), and appends are buffered and reserved once per buffer: one
 * atomic per WEIR_IFDS_SINK_BATCH new edges, per WEIR_IFDS_LIST_BATCH list
 * entries or outbox entries, instead of one each. List entries are only read
 * by the next program (expand reads what relate added), so they may wait
 * for the end of the workgroup. */
#ifndef WEIR_PROGRAMS_IFDS_SINK_HOST_H
#define WEIR_PROGRAMS_IFDS_SINK_HOST_H

#define WEIR_IFDS_SINK_BATCH 512u
#define WEIR_IFDS_CANDIDATES 256u
#define WEIR_IFDS_LIST_BATCH 64u
#define WEIR_IFDS_PREFETCH 8u
struct ifds_sink {
  uint32_t n, candidates, incs, sums, outs;
  uint64_t keys[WEIR_IFDS_SINK_BATCH];
  uint64_t candidate[WEIR_IFDS_CANDIDATES];
  uint64_t inc_key[WEIR_IFDS_LIST_BATCH], out_key[WEIR_IFDS_LIST_BATCH];
  uint32_t inc_k[WEIR_IFDS_LIST_BATCH], inc_slot[WEIR_IFDS_LIST_BATCH];
  uint32_t sum_d2[WEIR_IFDS_LIST_BATCH], sum_slot[WEIR_IFDS_LIST_BATCH];
  uint32_t out_to[WEIR_IFDS_LIST_BATCH];
};
IFDS_FN void ifds_sink_init(ifds_sink *s) { s->n = s->candidates = s->incs = s->sums = s->outs = 0u; }

IFDS_FN void ifds_sink_flush_log(const ifds_ctx *cx, ifds_sink *s) {
  if (s->n == 0u) return;
  uint32_t at = ifds_reserve(cx, WEIR_IFDS_C_PLOG, s->n);
  if (at <= cx->pc.plog_cap && s->n <= cx->pc.plog_cap - at) {
    /* In runs that stay inside one shard. */
    for (uint32_t done = 0; done < s->n;) {
      uint32_t i = at + done, room = cx->mask - (i & cx->mask) + 1u;
      uint32_t n = s->n - done < room || room == 0u ? s->n - done : room;
      if (ifds_narrow(cx)) {
        uint32_t *to = ifds_at32(cx, cx->plog, i);
        for (uint32_t j = 0; j < n; ++j) to[j] = (uint32_t)s->keys[done + j];
      } else
        memcpy(ifds_at(cx, cx->plog, i), s->keys + done, (size_t)n * sizeof s->keys[0]);
      done += n;
    }
  } else
    ifds_overflow(cx, WEIR_IFDS_O_PLOG);
  s->n = 0u;
}
IFDS_FN void ifds_sink_push(const ifds_ctx *cx, ifds_sink *s, uint64_t key) {
  s->keys[s->n++] = key;
  if (s->n == WEIR_IFDS_SINK_BATCH) ifds_sink_flush_log(cx, s);
}
IFDS_FN void ifds_sink_drain(const ifds_ctx *cx, ifds_sink *s) {
  uint32_t n = s->candidates;
  s->candidates = 0u;
  for (uint32_t j = 0; j < n; ++j) {
    if (j + WEIR_IFDS_PREFETCH < n)
      __builtin_prefetch(
          ifds_path_slot(cx, ifds_slot(s->candidate[j + WEIR_IFDS_PREFETCH], cx->pc.ptab_size)));
    ifds_insert_new(cx, s, s->candidate[j]);
  }
}
IFDS_FN void ifds_candidate(const ifds_ctx *cx, ifds_sink *s, uint64_t key) {
  s->candidate[s->candidates++] = key;
  if (s->candidates == WEIR_IFDS_CANDIDATES) ifds_sink_drain(cx, s);
}

IFDS_FN void ifds_sink_flush_lists(const ifds_ctx *cx, ifds_sink *s) {
  if (s->incs) {
    uint32_t e = ifds_reserve(cx, WEIR_IFDS_C_INC, s->incs);
    for (uint32_t j = 0; j < s->incs; ++j)
      ifds_put_incoming(cx, e + j, s->inc_key[j], s->inc_k[j], s->inc_slot[j]);
  }
  if (s->sums) {
    uint32_t e = ifds_reserve(cx, WEIR_IFDS_C_ES, s->sums);
    for (uint32_t j = 0; j < s->sums; ++j) ifds_put_summary(cx, e + j, s->sum_d2[j], s->sum_slot[j]);
  }
  s->incs = s->sums = 0u;
}
IFDS_FN void ifds_add_incoming(const ifds_ctx *cx, ifds_sink *s, uint64_t key, uint32_t k,
                               uint32_t slot) {
  s->inc_key[s->incs] = key;
  s->inc_k[s->incs] = k;
  s->inc_slot[s->incs++] = slot;
  if (s->incs == WEIR_IFDS_LIST_BATCH) ifds_sink_flush_lists(cx, s);
}
IFDS_FN void ifds_add_summary(const ifds_ctx *cx, ifds_sink *s, uint32_t d2, uint32_t slot) {
  s->sum_d2[s->sums] = d2;
  s->sum_slot[s->sums++] = slot;
  if (s->sums == WEIR_IFDS_LIST_BATCH) ifds_sink_flush_lists(cx, s);
}

/* One reservation per destination in the buffer: the entries for the
 * first one left are written, the others kept for the next pass. */
IFDS_FN void ifds_sink_flush_out(const ifds_ctx *cx, ifds_sink *s) {
  uint32_t n = s->outs;
  while (n) {
    uint32_t to = s->out_to[0], same = 0, kept = 0;
    for (uint32_t j = 0; j < n; ++j) same += s->out_to[j] == to;
    uint32_t at = ifds_reserve(cx, WEIR_IFDS_C_OUT + to, same);
    for (uint32_t j = 0; j < n; ++j) {
      if (s->out_to[j] == to) {
        ifds_put_out(cx, to, at++, s->out_key[j]);
        continue;
      }
      s->out_to[kept] = s->out_to[j];
      s->out_key[kept++] = s->out_key[j];
    }
    n = kept;
  }
  s->outs = 0u;
}
IFDS_FN void ifds_send(const ifds_ctx *cx, ifds_sink *s, uint32_t to, uint64_t key) {
  s->out_to[s->outs] = to;
  s->out_key[s->outs++] = key;
  if (s->outs == WEIR_IFDS_LIST_BATCH) ifds_sink_flush_out(cx, s);
}

/* End of a workgroup: every candidate inserted, every append written. */
IFDS_FN void ifds_sink_flush(const ifds_ctx *cx, ifds_sink *s) {
  ifds_sink_drain(cx, s);
  ifds_sink_flush_log(cx, s);
  ifds_sink_flush_lists(cx, s);
  ifds_sink_flush_out(cx, s);
}

#endif
