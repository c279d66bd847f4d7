/* The problem generator: procedure sizes, call structure and flow functions
 * from a preset's parameters and a seeded PRNG, fed straight to a problem
 * builder (the text is the builder's problem through the writer).
 * Valid by construction: every non-exit node continues to the next node
 * (by an edge, or by a call whose return site is the next node), so every
 * node of an entered procedure is reachable; branches jump forward, loops
 * jump back, and no edge is written twice. */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/gen.h"
#include "engine/ifds/internal.h"

typedef struct gen {
  uint64_t rng;
  const weir_ifds_gen_options *o;
  ifds_gen_params pr;
  uint32_t P, F;
  uint32_t *size, *first;
  uint32_t *reach_index; /* position among the reachable procedures, or NONE */
  ifds_vec reach;        /* reachable procedures, ascending */
  ifds_vec required, is_call, call_pos, callee_off, callees;
  weir_ifds_builder *b;
  /* The flow function being drawn: identity, kills, flattened pairs. */
  int identity;
  ifds_vec kills, pairs;
  int failed; /* a scratch push ran out of memory */
} gen;

static uint64_t next(gen *g) { /* splitmix64 */
  uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
  return ifds_mix64(z);
}
static uint32_t below(gen *g, uint32_t n) { return n ? (uint32_t)(next(g) % n) : 0; }
static int chance(gen *g, uint32_t permille) { return below(g, 1000) < permille; }

/* A non-zero fact from the preset's window (facts >= 2). */
static uint32_t fact(gen *g) {
  uint32_t span = g->F - 1;
  if (g->pr.fact_window && g->pr.fact_window < span) span = g->pr.fact_window;
  return 1 + below(g, span);
}

/* ---- flow functions ------------------------------------------------------ */

static void put(gen *g, ifds_vec *v, uint32_t x) {
  if (ifds_vec_push(v, x) != WEIR_OK) g->failed = 1;
}

static void start(gen *g, int identity) {
  g->identity = identity;
  g->kills.len = g->pairs.len = 0;
}

/* A drawn pair takes its target fact first, then its source: the order in
 * which GCC evaluated `pair(g, fact(g), fact(g))` when the generator wrote
 * text, so problems stay what they were; now it is the order everywhere. */
static void pair(gen *g, uint32_t a, uint32_t b) {
  put(g, &g->pairs, a);
  put(g, &g->pairs, b);
}
static void pair_drawn(gen *g) {
  uint32_t b = fact(g);
  pair(g, fact(g), b);
}

static void kill(gen *g, uint32_t d) { put(g, &g->kills, d); }

/* Interns the function drawn since start(). */
static weir_status intern(gen *g, uint32_t *flow) {
  if (g->failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating a generated flow function failed. Fix: free memory.");
  return weir_ifds_builder_flow(g->b, g->identity, g->kills.data, g->kills.len, g->pairs.data,
                                g->pairs.len / 2, flow);
}

/* The flow of an edge: mostly `id`, else gen, kill, move, a block of pairs
 * or `none`, in the preset's proportions. */
static weir_status edge_flow(gen *g, uint32_t *flow) {
  const ifds_gen_params *pr = &g->pr;
  uint32_t r = below(g, 1000);
  start(g, r >= pr->none_permille);
  if (r < pr->none_permille || g->F < 2) return intern(g, flow);
  r -= pr->none_permille;
  if (r < pr->gen_permille) {
    if (chance(g, 333)) kill(g, fact(g));
    pair(g, 0, fact(g));
  } else if ((r -= pr->gen_permille) < pr->kill_permille) {
    kill(g, fact(g));
  } else if ((r -= pr->kill_permille) < pr->move_permille) {
    uint32_t a = fact(g);
    kill(g, a);
    pair(g, a, fact(g));
  } else if ((r -= pr->move_permille) < pr->block_permille) {
    for (uint32_t i = 0; i < pr->block_pairs; ++i) {
      if (chance(g, 200))
        pair(g, 0, fact(g));
      else
        pair_drawn(g);
    }
  }
  return intern(g, flow);
}

/* Parameter passing: `id`, or a pair or two, or only the zero fact. */
static weir_status call_flow(gen *g, uint32_t *flow) {
  if (g->F < 2 || chance(g, g->pr.id_callflow_permille)) {
    start(g, 1);
  } else if (chance(g, 100)) {
    start(g, 0); /* none */
  } else {
    start(g, 0);
    pair_drawn(g);
    if (chance(g, 400)) pair_drawn(g);
  }
  return intern(g, flow);
}

static weir_status return_flow(gen *g, uint32_t *flow) {
  if (g->F < 2 || chance(g, 200)) {
    start(g, 1);
    return intern(g, flow);
  }
  start(g, 0);
  pair_drawn(g);
  if (chance(g, 200)) pair(g, 0, fact(g));
  return intern(g, flow);
}

static weir_status call_to_return_flow(gen *g, uint32_t *flow) {
  start(g, 1);
  if (g->F >= 2 && chance(g, 300)) kill(g, fact(g));
  return intern(g, flow);
}

/* ---- who calls whom -------------------------------------------------------- */

/* Callees procedure p must call (so that everything meant to be reachable
 * is); *merge: all in one (indirect) call. */
static weir_status required_callees(gen *g, uint32_t p, int *merge) {
  ifds_vec *v = &g->required;
  v->len = 0;
  *merge = 0;
  uint32_t P = g->P;
  switch (g->pr.mode) {
    case IFDS_CALLEES_CHAIN:
      if (p + 1 < P) WEIR_TRY(ifds_vec_push(v, p + 1));
      break;
    case IFDS_CALLEES_FANOUT:
      if (p == 0 && P >= 3) {
        *merge = 1;
        for (uint32_t q = 1; q + 1 < P; ++q) WEIR_TRY(ifds_vec_push(v, q));
      } else if (p + 1 < P) {
        WEIR_TRY(ifds_vec_push(v, P - 1));
      }
      break;
    case IFDS_CALLEES_RECURSIVE: WEIR_TRY(ifds_vec_push(v, (p + 1) % P)); break;
    case IFDS_CALLEES_FORWARD: {
      uint32_t j = g->reach_index[p];
      if (j == WEIR_IFDS_NONE) break;
      for (uint64_t c = 2ull * j + 1; c <= 2ull * j + 2 && c < g->reach.len; ++c)
        WEIR_TRY(ifds_vec_push(v, g->reach.data[c]));
      break;
    }
  }
  return WEIR_OK;
}

/* A further callee of p, or NONE where the preset has no further calls. */
static uint32_t random_callee(gen *g, uint32_t p) {
  uint32_t P = g->P;
  switch (g->pr.mode) {
    case IFDS_CALLEES_CHAIN: return p + 1 < P ? p + 1 : WEIR_IFDS_NONE;
    case IFDS_CALLEES_FANOUT: return p + 1 < P ? P - 1 : WEIR_IFDS_NONE;
    case IFDS_CALLEES_RECURSIVE: {
      uint32_t r = below(g, 3);
      return r == 0 ? p : r == 1 ? (p + P - 1) % P : below(g, P);
    }
    case IFDS_CALLEES_FORWARD: {
      uint32_t n = (uint32_t)g->reach.len, j = g->reach_index[p];
      if (j == WEIR_IFDS_NONE || chance(g, 30)) return g->reach.data[below(g, n)];
      uint64_t k = (uint64_t)j + 1 + below(g, 64);
      return k < n ? g->reach.data[k] : g->reach.data[below(g, n)];
    }
  }
  return WEIR_IFDS_NONE;
}

/* ---- one procedure ---------------------------------------------------------- */

static int listed(const ifds_vec *v, size_t from, uint32_t x) {
  for (size_t i = from; i < v->len; ++i)
    if (v->data[i] == x) return 1;
  return 0;
}

/* Marks call nodes among the n-1 non-exit positions: at random, and enough
 * for the required callees. */
static weir_status choose_calls(gen *g, uint32_t n, size_t need) {
  ifds_vec *c = &g->is_call;
  c->len = 0;
  size_t count = 0;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    uint32_t yes = chance(g, g->pr.call_permille);
    count += yes;
    WEIR_TRY(ifds_vec_push(c, yes));
  }
  if (need > n - 1) need = n - 1;
  for (uint32_t i = below(g, n - 1); count < need; i = (i + 1) % (n - 1))
    if (!c->data[i]) c->data[i] = 1, ++count;
  return WEIR_OK;
}

/* Callee lists of the call nodes of p (callee_off per call, into callees). */
static weir_status assign_callees(gen *g, uint32_t p, uint32_t n) {
  int merge;
  WEIR_TRY(required_callees(g, p, &merge));
  WEIR_TRY(choose_calls(g, n, merge ? 1 : g->required.len));
  g->call_pos.len = g->callee_off.len = g->callees.len = 0;
  for (uint32_t i = 0; i + 1 < n; ++i)
    if (g->is_call.data[i]) WEIR_TRY(ifds_vec_push(&g->call_pos, i));
  size_t calls = g->call_pos.len;
  for (size_t j = 0; j < calls; ++j) {
    WEIR_TRY(ifds_vec_push(&g->callee_off, (uint32_t)g->callees.len));
    size_t start = g->callees.len;
    /* the required callees first: all on the first call, or dealt round */
    for (size_t r = merge ? 0 : j; r < g->required.len && (!merge || j == 0);
         r += merge ? 1 : calls)
      WEIR_TRY(ifds_vec_push(&g->callees, g->required.data[r]));
    uint32_t extra = g->callees.len == start ? 1 : 0;
    if (chance(g, g->pr.indirect_permille)) extra += 1 + below(g, g->pr.max_indirect - 1);
    for (uint32_t k = 0; k < extra; ++k) {
      uint32_t q = random_callee(g, p);
      if (q != WEIR_IFDS_NONE && !listed(&g->callees, start, q))
        WEIR_TRY(ifds_vec_push(&g->callees, q));
    }
    if (g->callees.len == start) g->is_call.data[g->call_pos.data[j]] = 0; /* nobody to call */
  }
  return ifds_vec_push(&g->callee_off, (uint32_t)g->callees.len);
}

static weir_status edge(gen *g, uint32_t from, uint32_t to) {
  uint32_t flow;
  WEIR_TRY(edge_flow(g, &flow));
  return weir_ifds_builder_edge(g->b, from, to, flow);
}

static weir_status call(gen *g, uint32_t site, size_t j) {
  uint32_t flow, cf, rf;
  WEIR_TRY(call_to_return_flow(g, &flow));
  WEIR_TRY(weir_ifds_builder_call(g->b, site, site + 1, flow));
  for (uint32_t k = g->callee_off.data[j]; k < g->callee_off.data[j + 1]; ++k) {
    WEIR_TRY(call_flow(g, &cf));
    WEIR_TRY(return_flow(g, &rf));
    WEIR_TRY(weir_ifds_builder_callee(g->b, site, g->callees.data[k], cf, rf));
  }
  return WEIR_OK;
}

static weir_status write_proc(gen *g, uint32_t p) {
  uint32_t n = g->size[p], s = g->first[p];
  WEIR_TRY(assign_callees(g, p, n));
  size_t j = 0; /* index among the call positions */
  for (uint32_t i = 0; i + 1 < n; ++i) {
    while (j < g->call_pos.len && g->call_pos.data[j] < i) ++j;
    if (g->is_call.data[i]) {
      WEIR_TRY(call(g, s + i, j));
      continue;
    }
    WEIR_TRY(edge(g, s + i, s + i + 1));
    if (i + 2 <= n - 1 && chance(g, g->pr.branch_permille)) /* forward: i+2..exit */
      WEIR_TRY(edge(g, s + i, s + i + 2 + below(g, n - 1 - (i + 2) + 1)));
    if (chance(g, g->pr.loop_permille)) /* back: 0..i */
      WEIR_TRY(edge(g, s + i, s + below(g, i + 1)));
  }
  return WEIR_OK;
}

/* ---- the whole problem ------------------------------------------------------ */

static weir_status layout(gen *g) {
  uint32_t npp = g->o->nodes_per_proc, big = g->pr.big_permille;
  /* Big procedures have 10x the average; the others are uniform around a
   * smaller mean so that the total stays about procs * nodes_per_proc. */
  uint64_t small_mean = (uint64_t)npp * (1000 - 10 * big) / (1000 - big);
  uint64_t total = 0;
  for (uint32_t p = 0; p < g->P; ++p) {
    uint64_t n = npp;
    if (g->pr.size_jitter && small_mean >= 3) n = 2 + below(g, (uint32_t)(2 * small_mean - 3));
    if (chance(g, big)) n = (uint64_t)npp * 10;
    g->first[p] = (uint32_t)total;
    g->size[p] = (uint32_t)n;
    total += n;
    if (total > UINT32_MAX)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "generating %u procedures of about %u nodes "
                       "exceeds 2^32-1 nodes. Fix: lower --procs or --nodes-per-proc.",
                       g->P, npp);
  }
  for (uint32_t p = 0; p < g->P; ++p) { /* main is always reachable */
    int unreachable =
        g->pr.mode == IFDS_CALLEES_FORWARD && p && chance(g, g->pr.unreachable_permille);
    g->reach_index[p] = unreachable ? WEIR_IFDS_NONE : (uint32_t)g->reach.len;
    if (!unreachable) WEIR_TRY(ifds_vec_push(&g->reach, p));
  }
  return WEIR_OK;
}

static weir_status procs(gen *g) {
  uint32_t nodes = g->first[g->P - 1] + g->size[g->P - 1];
  WEIR_TRY(weir_ifds_builder_create(g->F, g->P, nodes, &g->b));
  char name[32];
  for (uint32_t p = 0; p < g->P; ++p) {
    if (p)
      snprintf(name, sizeof name, "f%u", p);
    else
      snprintf(name, sizeof name, "main");
    WEIR_TRY(weir_ifds_builder_proc(g->b, p, g->first[p], g->first[p] + g->size[p] - 1, name));
  }
  return WEIR_OK;
}

/* (main's start, 0), then seeds at random nodes of reachable procedures. */
static weir_status seeds(gen *g) {
  WEIR_TRY(weir_ifds_builder_seed(g->b, 0, 0));
  for (uint32_t i = 1; i < g->o->seeds; ++i) {
    uint32_t p = g->reach.data[below(g, (uint32_t)g->reach.len)];
    uint32_t node = g->first[p] + below(g, g->size[p]);
    WEIR_TRY(weir_ifds_builder_seed(g->b, node, below(g, g->F)));
  }
  return WEIR_OK;
}

static weir_status generate(gen *g, weir_ifds_problem **out) {
  WEIR_TRY(layout(g));
  WEIR_TRY(procs(g));
  for (uint32_t p = 0; p < g->P; ++p) WEIR_TRY(write_proc(g, p));
  WEIR_TRY(seeds(g));
  WEIR_TRY(weir_ifds_builder_build(g->b, out));
  char name[64];
  snprintf(name, sizeof name, "generated-%s.ifds", weir_ifds_preset_name(g->o->preset));
  snprintf((*out)->source_name, sizeof (*out)->source_name, "%s", name);
  return WEIR_OK;
}

static void gen_free(gen *g) {
  free(g->size);
  free(g->first);
  free(g->reach_index);
  weir_ifds_builder_free(g->b);
  ifds_vec *vecs[] = {&g->reach,    &g->required, &g->is_call, &g->call_pos,
                      &g->callee_off, &g->callees, &g->kills,   &g->pairs};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
}

/* The options with defaults, or the reason they cannot be generated. */
static weir_status check_options(const weir_ifds_gen_options *options, const char *call,
                                 weir_ifds_gen_options *o) {
  if (!options)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: options is NULL. Fix: pass the options.",
                     call);
  if ((unsigned)options->preset >= WEIR_IFDS_PRESET_COUNT)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: unknown preset %d. Fix: use a weir_ifds_preset value.", call,
                     (int)options->preset);
  *o = *options;
  weir_ifds_gen_defaults(o);
  if (o->nodes_per_proc < 2)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "nodes per procedure %u is below 2 (a start and an exit). Fix: use "
                     "--nodes-per-proc 2 or more.",
                     o->nodes_per_proc);
  return WEIR_OK;
}

weir_status weir_ifds_generate_problem(const weir_ifds_gen_options *options,
                                       weir_ifds_problem **out) {
  if (!out)
    return weir_fail(
        WEIR_ERR_INVALID_ARGUMENT,
        "weir_ifds_generate_problem: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  weir_ifds_gen_options o;
  WEIR_TRY(check_options(options, "weir_ifds_generate_problem", &o));
  gen g = {.rng = o.seed, .o = &o, .P = o.procs, .F = o.facts};
  ifds_gen_params_of(&o, &g.pr);
  g.size = malloc(g.P * sizeof *g.size);
  g.first = malloc(g.P * sizeof *g.first);
  g.reach_index = malloc(g.P * sizeof *g.reach_index);
  weir_status s = WEIR_OK;
  if (!g.size || !g.first || !g.reach_index)
    s = weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                  "allocating the generator's tables for %u procedures failed. Fix: lower --procs.",
                  g.P);
  if (s == WEIR_OK) s = generate(&g, out);
  gen_free(&g);
  return s;
}

weir_status weir_ifds_generate(const weir_ifds_gen_options *options, FILE *file) {
  if (!file)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_generate: file is NULL. Fix: pass an open file.");
  weir_ifds_gen_options o;
  WEIR_TRY(check_options(options, "weir_ifds_generate", &o));
  weir_ifds_problem *p = NULL;
  WEIR_TRY(weir_ifds_generate_problem(&o, &p));
  fprintf(file,
          "# weir gen %s --procs %u --nodes-per-proc %u --facts %u --seeds %u --seed %llu\n",
          weir_ifds_preset_name(o.preset), o.procs, o.nodes_per_proc, o.facts, o.seeds,
          (unsigned long long)o.seed);
  weir_status s = weir_ifds_write_problem(p, file);
  weir_ifds_problem_free(p);
  return s;
}
