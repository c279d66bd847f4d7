/* Builds the problem with the builder of weir/ifds.h: procedures, then per
 * function its edges, calls and callees, and finally the seeds; next to it
 * the fact legend (what each fact stands for) that the problem itself has
 * no room for. The flow of an instruction sits on the edges that leave its
 * node, so the facts that hold at a node are those before the instruction
 * runs; a terminator's edge to a successor also carries that successor's
 * phi assignments.
 *
 * Two passes over the same hooks. The first only collects the fact graph:
 * an edge a -> b for every pair of every flow function (gen = 0 -> b) with
 * a != b, and the facts the checks look at (the demand). A fact that no path
 * of that graph reaches from the zero fact can never hold anywhere (identity
 * keeps a fact, only pairs make new ones); a fact from which no path leads
 * to a demanded fact can hold, but no finding depends on it (the flow
 * functions are distributive: whatever it makes, it makes alone). The
 * second pass builds only the facts on a path from zero to a demanded fact,
 * renumbered: the findings and their code flows are the same, the path
 * edges of everything else are gone. On real programs most memory locations
 * and values can never be tainted (uninitialised,
 * freed): pruning them is what keeps the problem small. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"
#include "frontends/llvm/module/bypass.h"
#include "frontends/llvm/module/liveness.h"
#include "weir/ide.h"

typedef struct emitter {
  weir_llvm_ctx *ctx;
  weir_ifds_builder *builder; /* second pass; NULL while collecting the fact graph */
  weir_llvm_vec graph;     /* from, to pairs (first pass) */
  uint32_t hubs;           /* first pass: graph vertices after the facts, one per bundle */
  weir_llvm_vec demand;    /* facts the checks look at (first pass) */
  weir_llvm_flow flow, flow2;
  weir_llvm_vec scratch;   /* one flow's arrays through the fact map */
  weir_llvm_text name;     /* one procedure name, NUL-terminated */
  uint32_t *die_first;     /* [value_count + 1] into die_facts, by instruction vid */
  weir_llvm_vec die_facts; /* value facts that die after that instruction */
  weir_llvm_liveness live; /* of the function being built: facts die on edges */
  int flow_is_id;          /* the last interned flow is the identity (after pruning) */
  weir_llvm_vec fn_edges;  /* second pass: the function's edges (from, to, flow, is-id) */
  weir_llvm_vec bypassed;  /* the same after bypass.c: (from, to, flow) */
  uint8_t *keep;           /* [nodes of the function] not to be bypassed */
  size_t keep_cap;
  weir_status status;      /* the first failure of a step that reports one */
  /* typestate (an IDE problem): the IDE builder that owns `builder`, and
   * the edge functions of the function being built, (node, to, d1, d2, fn)
   * in built numbering, placed on that edge after bypass.c (both ends kept). */
  weir_ide_builder *ide;
  weir_llvm_vec pending;
} emitter;

/* ---- value facts die after their last use --------------------------------
 * An SSA value's fact would otherwise be carried by identity to the end of
 * its function: (values that can hold) x (nodes) path edges, most of the
 * problem on long functions. A value whose uses are all in its own block
 * (no phi among them) is dead after the last one: its fact is killed on
 * the edges that leave that instruction. Values used in other blocks keep
 * their fact (no liveness across blocks; still correct, only larger). */
static weir_status plan_deaths(emitter *e) {
  weir_llvm_ctx *ctx = e->ctx;
  uint32_t n = ctx->value_count;
  uint32_t *last = malloc(((size_t)n + 1) * sizeof *last);
  e->die_first = calloc((size_t)n + 2, sizeof *e->die_first);
  if (!last || !e->die_first) {
    free(last);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for %u values. Fix: free memory", n);
  }
  for (uint32_t v = 0; v < n; ++v) {
    last[v] = WEIR_LLVM_NONE;
    LLVMValueRef value = ctx->values[v];
    if (!ctx->fact_a[v] || !LLVMIsAInstruction(value)) continue;
    LLVMBasicBlockRef block = LLVMGetInstructionParent(value);
    uint32_t best = WEIR_LLVM_NONE, best_node = 0;
    int local = 1;
    for (LLVMUseRef u = LLVMGetFirstUse(value); u && local; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      uint32_t uid = LLVMIsAInstruction(user) ? weir_llvm_vid(ctx, user) : WEIR_LLVM_NONE;
      local = uid != WEIR_LLVM_NONE && !LLVMIsAPHINode(user) && LLVMGetInstructionParent(user) == block;
      if (local && (best == WEIR_LLVM_NONE || ctx->node_of[uid] > best_node)) best = uid, best_node = ctx->node_of[uid];
    }
    if (!LLVMGetFirstUse(value) && !LLVMIsATerminatorInst(value)) /* unused: dies at once */
      best = weir_llvm_vid(ctx, LLVMGetNextInstruction(value));
    if (local && best != WEIR_LLVM_NONE) last[v] = best;
  }
  for (uint32_t v = 0; v < n; ++v)
    if (last[v] != WEIR_LLVM_NONE) e->die_first[last[v] + 2]++;
  for (uint32_t v = 0; v < n; ++v) e->die_first[v + 2] += e->die_first[v + 1];
  for (uint32_t k = 0; k < e->die_first[n + 1]; ++k) weir_llvm_vec_push(&e->die_facts, 0);
  for (uint32_t v = 0; v < n && !e->die_facts.failed; ++v)
    if (last[v] != WEIR_LLVM_NONE) e->die_facts.v[e->die_first[last[v] + 1]++] = ctx->fact_a[v];
  free(last);
  return e->die_facts.failed ? weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory. Fix: free memory") : WEIR_OK;
}

/* Kills the value facts that die after instruction `vid`. */
static void add_deaths(const emitter *e, uint32_t vid, weir_llvm_flow *flow) {
  if (!e->die_first || vid == WEIR_LLVM_NONE) return;
  for (uint32_t k = e->die_first[vid]; k < e->die_first[vid + 1]; ++k) weir_llvm_flow_kill(flow, e->die_facts.v[k]);
}

/* ---- the fact graph and pruning ----------------------------------------- */
static void collect(emitter *e, const weir_llvm_flow *flow) {
  for (size_t k = 0; k + 1 < flow->pairs.n; k += 2) {
    uint32_t from = flow->pairs.v[k], to = flow->pairs.v[k + 1];
    if (from == to) continue;
    weir_llvm_vec_push(&e->graph, from);
    weir_llvm_vec_push(&e->graph, to);
  }
  /* a bundle's sides meet in a vertex of its own: the same reachability
   * as every pair, in nf + nt edges */
  for (size_t b = 0; b + 1 < flow->bundles.n;) {
    uint32_t nf = flow->bundles.v[b], nt = flow->bundles.v[b + 1];
    uint32_t hub = e->ctx->fact_count + e->hubs++;
    for (uint32_t i = 0; i < nf + nt; ++i) {
      uint32_t fact = flow->bundles.v[b + 2 + i];
      weir_llvm_vec_push(&e->graph, i < nf ? fact : hub);
      weir_llvm_vec_push(&e->graph, i < nf ? hub : fact);
    }
    b += 2 + (size_t)nf + nt;
  }
}

/* Marks in `mark` (bit `bit`) every fact reached from the `count` facts of
 * `seeds` (repeats allowed, those >= n ignored) along the adjacency
 * `start`/`adj` of the n facts; `queue` has room for every fact. */
static void reach(const uint32_t *start, const uint32_t *adj, uint32_t n, uint8_t *mark, uint8_t bit,
                  const uint32_t *seeds, size_t count, uint32_t *queue) {
  size_t head = 0, tail = 0;
  for (size_t k = 0; k < count; ++k)
    if (seeds[k] < n && !(mark[seeds[k]] & bit)) mark[seeds[k]] |= bit, queue[tail++] = seeds[k];
  while (head < tail) {
    uint32_t f = queue[head++];
    for (uint32_t k = start[f]; k < start[f + 1]; ++k)
      if (!(mark[adj[k]] & bit)) mark[adj[k]] |= bit, queue[tail++] = adj[k];
  }
}

/* The graph's edges as adjacency lists, forward (from -> to) or backward. */
static void adjacency(const weir_llvm_vec *graph, uint32_t n, int backward, uint32_t *start, uint32_t *adj,
                      uint32_t *fill) {
  size_t edges = graph->n / 2;
  int from = backward ? 1 : 0;
  memset(start, 0, ((size_t)n + 1) * sizeof *start);
  for (size_t k = 0; k < edges; ++k) start[graph->v[2 * k + from] + 1]++;
  for (uint32_t f = 0; f < n; ++f) start[f + 1] += start[f];
  memcpy(fill, start, (size_t)n * sizeof *fill);
  for (size_t k = 0; k < edges; ++k) adj[fill[graph->v[2 * k + from]]++] = graph->v[2 * k + 1 - from];
}

/* Live facts (reachable from 0, and reaching a demanded fact) get
 * consecutive numbers; the rest NONE. *generable counts those reachable
 * from 0. */
static uint32_t *live_facts(emitter *e, uint32_t *live_count, uint32_t *generable) {
  uint32_t facts = e->ctx->fact_count, n = facts + e->hubs; /* the graph's vertices */
  size_t edges = e->graph.n / 2;
  uint32_t *start = malloc(((size_t)n + 1) * sizeof *start);
  uint32_t *adj = malloc((edges ? edges : 1) * sizeof *adj);
  uint32_t *map = malloc((size_t)n * sizeof *map);
  uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
  uint8_t *mark = calloc((size_t)n, 1);
  if (!start || !adj || !map || !queue || !mark) {
    free(start), free(adj), free(map), free(queue), free(mark);
    return NULL;
  }
  enum { FROM_ZERO = 1, TO_DEMAND = 2 };
  const uint32_t zero = 0;
  adjacency(&e->graph, n, 0, start, adj, queue);
  reach(start, adj, n, mark, FROM_ZERO, &zero, 1, queue);
  if (e->ctx->config && e->ctx->config->keep_all_facts) { /* weir_llvm_config_keep_all_facts */
    for (uint32_t f = 0; f < n; ++f) mark[f] |= TO_DEMAND;
  } else {
    adjacency(&e->graph, n, 1, start, adj, queue);
    reach(start, adj, n, mark, TO_DEMAND, e->demand.v, e->demand.n, queue);
    mark[0] |= TO_DEMAND; /* zero is always there */
  }
  /* Number in the original order so the legend reads like the analysis. */
  uint32_t next = 0, from_zero = 0;
  for (uint32_t f = 0; f < facts; ++f) {
    from_zero += (mark[f] & FROM_ZERO) != 0;
    map[f] = mark[f] == (FROM_ZERO | TO_DEMAND) ? next++ : WEIR_LLVM_NONE;
  }
  free(start), free(adj), free(queue), free(mark);
  *live_count = next;
  *generable = from_zero;
  return map;
}

/* ---- building ---------------------------------------------------------- */

/* Records the first failure; the builder steps after it do nothing, so its
 * message is the one the caller sees. */
static void keep(emitter *e, weir_status s) {
  if (e->status == WEIR_OK) e->status = s;
}

static int building(const emitter *e) { return e->builder && e->status == WEIR_OK; }

/* Names must be one token and unique; LLVM names are unique, so only odd
 * ones (empty, quoted with spaces or non-ASCII bytes) get a numbered
 * stand-in, with a leading '"' that no clean LLVM name can start with. */
static const char *proc_name(emitter *e, uint32_t proc) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(e->ctx->fns[proc].fn, &length);
  int clean = length > 0;
  for (size_t k = 0; k < length && clean; ++k)
    if ((unsigned char)name[k] <= ' ' || name[k] == '#' || (unsigned char)name[k] >= 0x7f) clean = 0;
  e->name.n = 0;
  if (clean && name[0] != '"') weir_llvm_text_put(&e->name, name, length);
  else weir_llvm_text_printf(&e->name, "\"anonymous.%u", proc);
  weir_llvm_text_put(&e->name, "", 1); /* the terminating NUL */
  return e->name.failed ? NULL : e->name.p;
}

/* The legend: what each built fact stands for, in the problem's numbering
 * (report/codeflow.c names the facts of a code flow with it, --emit-ifds
 * writes it as comments). */
static void record_legend(emitter *e) {
  weir_llvm_ctx *ctx = e->ctx;
  weir_llvm_problem *out = ctx->out;
  weir_llvm_vec_push(&out->legend_offset, 0);
  weir_llvm_text_put(&out->legend, "zero", 4);
  weir_llvm_vec_push(&out->legend_offset, (uint32_t)out->legend.n);
  for (uint32_t f = 1; f < ctx->fact_count; ++f) {
    if (ctx->fact_map[f] == WEIR_LLVM_NONE) continue;
    ctx->hooks->describe(ctx, f, &out->legend);
    weir_llvm_vec_push(&out->legend_offset, (uint32_t)out->legend.n);
  }
}

/* The counts and every procedure (they come before the body). */
static void build_procs(emitter *e, uint32_t live) {
  weir_llvm_ctx *ctx = e->ctx;
  if (ctx->analysis == WEIR_LLVM_TYPESTATE || ctx->analysis == WEIR_LLVM_CONST) {
    int linear = ctx->analysis == WEIR_LLVM_CONST;
    keep(e, weir_ide_builder_create(linear ? WEIR_IDE_LINEAR : WEIR_IDE_TYPESTATE, linear ? 0 : ctx->out->ts_states,
                                    live, ctx->fn_count, ctx->node_count, &e->ide));
    if (e->ide) e->builder = weir_ide_builder_ifds(e->ide);
  } else {
    keep(e, weir_ifds_builder_create(live, ctx->fn_count, ctx->node_count, &e->builder));
  }
  for (uint32_t p = 0; p < ctx->fn_count && building(e); ++p) {
    const char *name = proc_name(e, p);
    if (!name) keep(e, weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for a procedure name. Fix: free memory"));
    else keep(e, weir_ifds_builder_proc(e->builder, p, ctx->fns[p].first, ctx->fns[p].last, name));
  }
}

/* Interns one flow function (second pass; its index) or collects its pairs
 * into the fact graph (first pass). */
static uint32_t put_flow(emitter *e, weir_llvm_flow *flow) {
  uint32_t index = 0;
  e->flow_is_id = 0;
  if (!e->builder) collect(e, flow);
  else if (building(e)) {
    keep(e, weir_llvm_flow_intern(e->builder, flow, e->ctx->fact_map, &e->scratch, &index));
    e->flow_is_id = flow->identity && e->scratch.n == 0; /* no kill, no pair left */
  }
  return index;
}

/* Edges wait in fn_edges until the function is complete (write_edges). */
/* The flow's edge functions (typestate) in built numbering, for the
 * out-edges of `node`; a pair pruned or killed (a value that dies there)
 * has none. */
static int note_fns(emitter *e, uint32_t node, uint32_t to, const weir_llvm_flow *flow) {
  const uint32_t *map = e->ctx->fact_map;
  int any = 0;
  for (size_t k = 0; e->ide && k + 2 < flow->fns.n; k += 3) {
    uint32_t d1 = flow->fns.v[k], d2 = flow->fns.v[k + 1];
    if (d1 == d2 && weir_llvm_vec_contains(&flow->kills, d1)) continue; /* kills: sorted by put_flow */
    if (flow->fns.v[k + 2] == 0) continue; /* the identity: the default (const lists it to merge with it) */
    d1 = map[d1], d2 = map[d2];
    if (d1 == WEIR_LLVM_NONE || d2 == WEIR_LLVM_NONE) continue;
    uint32_t entry[5] = {node, to, d1, d2, flow->fns.v[k + 2]};
    for (int j = 0; j < 5; ++j) weir_llvm_vec_push(&e->pending, entry[j]);
    any = 1;
  }
  return any;
}

/* The edge functions of a call-to-return (site CALL) or callee (CALLEE_*)
 * flow, placed at once (call nodes are never bypassed). */
static void site_fns(emitter *e, weir_ide_site site, uint32_t a, uint32_t b, const weir_llvm_flow *flow) {
  const uint32_t *map = e->ctx->fact_map;
  for (size_t k = 0; e->ide && building(e) && k + 2 < flow->fns.n; k += 3) {
    uint32_t d1 = flow->fns.v[k], d2 = flow->fns.v[k + 1];
    if (flow->identity && d1 == d2 && weir_llvm_vec_contains(&flow->kills, d1)) continue;
    d1 = map[d1], d2 = map[d2];
    if (d1 == WEIR_LLVM_NONE || d2 == WEIR_LLVM_NONE || flow->fns.v[k + 2] == 0) continue;
    keep(e, weir_ide_builder_pair_fn(e->ide, site, a, b, d1, d2, &e->ctx->out->ts_fns[flow->fns.v[k + 2]]));
  }
}

static void write_edge(emitter *e, uint32_t from, uint32_t to, weir_llvm_flow *flow) {
  uint32_t index = put_flow(e, flow);
  if (!building(e)) return;
  if (note_fns(e, from, to, flow)) e->flow_is_id = 0; /* a transition: never bypassed */
  weir_llvm_vec_push(&e->fn_edges, from);
  weir_llvm_vec_push(&e->fn_edges, to);
  weir_llvm_vec_push(&e->fn_edges, index);
  weir_llvm_vec_push(&e->fn_edges, (uint32_t)e->flow_is_id);
}

/* The nodes of function `proc` that the solver or the report needs: start,
 * exit, calls and their return sites, checks and sources recorded since
 * check_count / source_count. */
static int mark_kept(emitter *e, uint32_t proc, size_t checks, size_t sources) {
  weir_llvm_ctx *ctx = e->ctx;
  uint32_t first = ctx->fns[proc].first, n = ctx->fns[proc].last - first + 1;
  if (n > e->keep_cap) {
    uint8_t *k = realloc(e->keep, n);
    if (!k) return 0;
    e->keep = k, e->keep_cap = n;
  }
  memset(e->keep, 0, n);
  e->keep[0] = e->keep[n - 1] = 1;
  LLVMValueRef f = ctx->fns[proc].fn;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      uint32_t vid = weir_llvm_vid(ctx, i);
      if (ctx->callee_count[vid]) e->keep[ctx->node_of[vid] - first] = e->keep[ctx->node_of[vid] + 1 - first] = 1;
    }
  const weir_llvm_problem *out = ctx->out;
  for (size_t c = checks; c < out->check_count; ++c) e->keep[out->checks[c].node - first] = 1;
  for (size_t c = sources; c < out->source_count; ++c) e->keep[out->sources[c].node - first] = 1;
  /* An edge with edge functions keeps both ends: its functions belong to
   * that edge alone (a branch's successors take different phi values). */
  for (size_t k = 0; k + 4 < e->pending.n; k += 5) e->keep[e->pending.v[k] - first] = e->keep[e->pending.v[k + 1] - first] = 1;
  return 1;
}

/* The function's edges, with the nodes that only hand every fact on
 * bypassed (bypass.c), into the builder. */
static void write_edges(emitter *e, uint32_t proc, size_t checks, size_t sources) {
  weir_llvm_ctx *ctx = e->ctx;
  if (!building(e)) return;
  uint32_t bypassed = 0;
  weir_llvm_bypass_input in = {ctx->fns[proc].first, ctx->fns[proc].last - ctx->fns[proc].first + 1, NULL,
                               e->fn_edges.v, e->fn_edges.n / 4};
  if (e->fn_edges.failed || !mark_kept(e, proc, checks, sources) ||
      !(in.keep = e->keep, weir_llvm_bypass(&in, &e->bypassed, &bypassed))) {
    keep(e, weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the edges of a function. Fix: free memory"));
    return;
  }
  for (size_t k = 0; k + 2 < e->bypassed.n && building(e); k += 3) {
    uint32_t from = e->bypassed.v[k], to = e->bypassed.v[k + 1];
    keep(e, weir_ifds_builder_edge(e->builder, from, to, e->bypassed.v[k + 2]));
    for (size_t j = 0; j + 4 < e->pending.n && building(e); j += 5)
      if (e->pending.v[j] == from && e->pending.v[j + 1] == to)
        keep(e, weir_ide_builder_pair_fn(e->ide, WEIR_IDE_SITE_EDGE, from, to, e->pending.v[j + 2],
                                         e->pending.v[j + 3], &ctx->out->ts_fns[e->pending.v[j + 4]]));
  }
  e->pending.n = 0;
  ctx->out->stats.edges += (uint32_t)(e->bypassed.n / 3);
  ctx->out->stats.bypassed_nodes += bypassed;
}

static uint32_t first_node(const weir_llvm_ctx *ctx, LLVMBasicBlockRef block) {
  return ctx->node_of[weir_llvm_vid(ctx, LLVMGetFirstInstruction(block))];
}

/* One callee of a call node: its call and return flows, interned in that
 * order (the order the text format lists them). */
static void write_callee(emitter *e, LLVMValueRef call, uint32_t node, uint32_t proc) {
  weir_llvm_ctx *ctx = e->ctx;
  weir_llvm_flow_reset(&e->flow, 0);
  weir_llvm_flow_reset(&e->flow2, 0);
  ctx->hooks->callee(ctx, call, proc, &e->flow, &e->flow2);
  uint32_t call_flow = put_flow(e, &e->flow);
  uint32_t return_flow = put_flow(e, &e->flow2);
  if (!building(e)) return;
  keep(e, weir_ifds_builder_callee(e->builder, node, proc, call_flow, return_flow));
  site_fns(e, WEIR_IDE_SITE_CALLEE_CALL, node, proc, &e->flow);
  site_fns(e, WEIR_IDE_SITE_CALLEE_RETURN, node, proc, &e->flow2);
  ctx->out->stats.callee_lines++;
}

static void write_call(emitter *e, LLVMValueRef call, uint32_t vid, uint32_t node) {
  weir_llvm_ctx *ctx = e->ctx;
  uint32_t ret = node + 1;
  weir_llvm_flow_reset(&e->flow, 1);
  ctx->hooks->call_to_return(ctx, call, &e->flow);
  add_deaths(e, vid, &e->flow);
  uint32_t flow = put_flow(e, &e->flow);
  if (building(e)) {
    keep(e, weir_ifds_builder_call(e->builder, node, ret, flow));
    site_fns(e, WEIR_IDE_SITE_CALL, node, 0, &e->flow);
    ctx->out->stats.call_sites++;
  }
  for (uint32_t k = 0; k < ctx->callee_count[vid]; ++k)
    write_callee(e, call, node, ctx->callees.v[ctx->callee_first[vid] + k]);
  /* The return site leads to the next instruction unchanged. */
  weir_llvm_flow_reset(&e->flow, 1);
  write_edge(e, ret, ctx->node_of[weir_llvm_vid(ctx, LLVMGetNextInstruction(call))], &e->flow);
}

/* The edge of a terminator to one successor: its own effect, then the
 * successor's phis taking their values from this block. */
static void write_successor(emitter *e, LLVMValueRef term, uint32_t node, LLVMBasicBlockRef succ) {
  weir_llvm_ctx *ctx = e->ctx;
  weir_llvm_flow_reset(&e->flow2, 1);
  ctx->hooks->plain(ctx, term, &e->flow2);
  add_deaths(e, weir_llvm_vid(ctx, term), &e->flow2);
  LLVMBasicBlockRef here = LLVMGetInstructionParent(term);
  for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi);
       phi = LLVMGetNextInstruction(phi)) {
    unsigned count = LLVMCountIncoming(phi);
    for (unsigned k = 0; k < count; ++k)
      if (LLVMGetIncomingBlock(phi, k) == here) {
        ctx->hooks->move(ctx, LLVMGetIncomingValue(phi, k), phi, &e->flow2);
        break;
      }
  }
  if (ctx->hooks->edge) ctx->hooks->edge(ctx, term, succ, &e->flow2);
  weir_llvm_liveness_edge(ctx, &e->live, here, succ, &e->flow2);
  write_edge(e, node, first_node(ctx, succ), &e->flow2);
}

static void write_plain(emitter *e, LLVMValueRef inst, uint32_t proc, uint32_t node) {
  weir_llvm_ctx *ctx = e->ctx;
  if (LLVMIsATerminatorInst(inst) && !LLVMIsAReturnInst(inst)) {
    /* Several successors may be the same block (switch cases): one edge each. */
    unsigned count = LLVMGetNumSuccessors(inst);
    for (unsigned s = 0; s < count; ++s) {
      LLVMBasicBlockRef succ = LLVMGetSuccessor(inst, s);
      int seen = 0;
      for (unsigned t = 0; t < s && !seen; ++t) seen = LLVMGetSuccessor(inst, t) == succ;
      if (!seen) write_successor(e, inst, node, succ);
    }
    return;
  }
  weir_llvm_flow_reset(&e->flow, 1);
  if (!LLVMIsAPHINode(inst) &&
      !(LLVMIsACallInst(inst) && weir_llvm_classify_call(ctx, inst) == WEIR_LLVM_CALL_IGNORED))
    ctx->hooks->plain(ctx, inst, &e->flow);
  add_deaths(e, weir_llvm_vid(ctx, inst), &e->flow);
  uint32_t next = LLVMIsAReturnInst(inst) ? ctx->fns[proc].last
                                          : ctx->node_of[weir_llvm_vid(ctx, LLVMGetNextInstruction(inst))];
  write_edge(e, node, next, &e->flow);
}

static void write_function(emitter *e, uint32_t proc) {
  weir_llvm_ctx *ctx = e->ctx;
  LLVMValueRef f = ctx->fns[proc].fn;
  weir_llvm_liveness_free(&e->live);
  keep(e, weir_llvm_liveness_compute(ctx, f, &e->live));
  size_t checks = ctx->out->check_count, sources = ctx->out->source_count;
  e->fn_edges.n = 0;
  e->pending.n = 0;
  weir_llvm_flow_reset(&e->flow, 1);
  if (ctx->hooks->entry) ctx->hooks->entry(ctx, proc, &e->flow);
  write_edge(e, ctx->fns[proc].first, first_node(ctx, LLVMGetEntryBasicBlock(f)), &e->flow);
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      uint32_t vid = weir_llvm_vid(ctx, i);
      uint32_t node = ctx->node_of[vid];
      if (ctx->callee_count[vid]) write_call(e, i, vid, node);
      else write_plain(e, i, proc, node);
      if (e->builder) {
        weir_llvm_note_node(ctx, node, i);
        ctx->hooks->check(ctx, i, node);
      } else { /* the facts the checks would look at, nothing recorded */
        ctx->demand = &e->demand;
        ctx->hooks->check(ctx, i, node);
        ctx->demand = NULL;
      }
    }
  if (e->builder) write_edges(e, proc, checks, sources);
}

/* Entry points: main, and every function no resolved call reaches (library
 * API, callbacks handed to external code, dead code), in the zero context. */
static void write_seeds(emitter *e) {
  weir_llvm_ctx *ctx = e->ctx;
  for (uint32_t p = 0; p < ctx->fn_count && building(e); ++p) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[p].fn, &length);
    int is_main = length == 4 && memcmp(name, "main", 4) == 0;
    if (!is_main && ctx->fns[p].incoming) continue;
    keep(e, weir_ifds_builder_seed(e->builder, ctx->fns[p].first, 0));
    ctx->out->stats.seeds++;
  }
}

/* Checks were recorded with analysis fact numbers: renumber, drop the dead. */
static void map_checks(weir_llvm_ctx *ctx) {
  weir_llvm_problem *out = ctx->out;
  size_t kept = 0;
  for (size_t c = 0; c < out->check_count; ++c) {
    weir_llvm_check check = out->checks[c];
    uint32_t live = 0;
    for (uint32_t k = 0; k < check.fact_count; ++k) {
      uint32_t f = out->check_facts.v[check.fact_first + k];
      uint32_t mapped = f < ctx->fact_count ? ctx->fact_map[f] : WEIR_LLVM_NONE;
      if (mapped != WEIR_LLVM_NONE) out->check_facts.v[check.fact_first + live++] = mapped;
    }
    check.fact_count = live;
    if (live) out->checks[kept++] = check;
    else free(check.message);
  }
  out->check_count = kept;
}

static int emitter_failed(const emitter *e) {
  const weir_llvm_problem *out = e->ctx->out;
  return e->name.failed || e->scratch.failed || e->flow.kills.failed || e->flow.pairs.failed ||
         e->flow.bundles.failed || e->flow2.kills.failed || e->flow2.pairs.failed || e->flow2.bundles.failed || e->graph.failed || e->pending.failed || e->flow.fns.failed || e->flow2.fns.failed || out->failed ||
         out->legend.failed || out->legend_offset.failed || e->ctx->failed;
}

/* The second pass: the legend, the problem through the builder, the checks
 * in the built numbering. The built problem is ctx->out->ifds. */
static void build_problem(emitter *e, const uint32_t *map, uint32_t live) {
  weir_llvm_ctx *ctx = e->ctx;
  ctx->fact_map = map;
  record_legend(e);
  build_procs(e, live);
  for (uint32_t p = 0; p < ctx->fn_count && e->builder; ++p) write_function(e, p);
  write_seeds(e);
  map_checks(ctx);
  ctx->fact_map = NULL;
  if (building(e) && !emitter_failed(e) && e->ide) {
    keep(e, weir_ide_builder_build(e->ide, &ctx->out->ide));
    if (ctx->out->ide) ctx->out->ifds = ctx->out->ide->ifds; /* owned by the IDE problem */
  } else if (building(e) && !emitter_failed(e)) {
    keep(e, weir_ifds_builder_build(e->builder, &ctx->out->ifds));
    if (ctx->out->ifds)
      snprintf(ctx->out->ifds->source_name, sizeof ctx->out->ifds->source_name, "%.200s (%s problem)",
               ctx->out->name, weir_llvm_problem_analysis(ctx->out));
  }
  if (e->ide) weir_ide_builder_free(e->ide); /* and its IFDS builder */
  else weir_ifds_builder_free(e->builder);
  e->builder = NULL;
  e->ide = NULL;
}

static void emitter_free(emitter *e) {
  weir_llvm_flow_free(&e->flow);
  weir_llvm_flow_free(&e->flow2);
  weir_llvm_vec_free(&e->scratch);
  weir_llvm_text_free(&e->name);
  weir_llvm_vec_free(&e->graph);
  weir_llvm_vec_free(&e->demand);
  free(e->die_first);
  weir_llvm_vec_free(&e->die_facts);
  weir_llvm_liveness_free(&e->live);
  weir_llvm_vec_free(&e->fn_edges);
  weir_llvm_vec_free(&e->bypassed);
  weir_llvm_vec_free(&e->pending);
  free(e->keep);
}

static void fill_stats(weir_llvm_ctx *ctx, uint32_t live, uint32_t generable) {
  weir_llvm_build_stats *st = &ctx->out->stats;
  st->nodes = ctx->node_count;
  st->facts = live;
  st->facts_before_pruning = ctx->fact_count;
  st->facts_generable = generable;
  st->functions = ctx->fn_count;
  st->checks = (uint32_t)ctx->out->check_count;
  st->text_bytes = 0; /* no text any more: the problem is built in memory */
}

weir_status weir_llvm_emit(weir_llvm_ctx *ctx) {
  emitter e = {.ctx = ctx};
  weir_status s = plan_deaths(&e);
  if (s != WEIR_OK) {
    emitter_free(&e);
    return s;
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p) write_function(&e, p);
  uint32_t live = 0, generable = 0;
  uint32_t *map = emitter_failed(&e) || e.demand.failed ? NULL : live_facts(&e, &live, &generable);
  weir_llvm_vec_free(&e.graph);
  weir_llvm_vec_free(&e.demand);
  if (map) build_problem(&e, map, live);
  int failed = !map || emitter_failed(&e);
  free(map);
  emitter_free(&e);
  if (e.status == WEIR_ERR_OUT_OF_MEMORY) s = e.status;
  else if (e.status != WEIR_OK) /* the builder refused an element: the frontend's bug */
    s = weir_fail_context(e.status, "analyze %s: the frontend built a problem the builder refuses (a bug in "
                                    "frontends/llvm; please report it with the input)", ctx->out->name);
  else if (failed)
    s = weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                  "analyze %s: no memory for the IFDS problem. Fix: free memory or analyse a smaller module",
                  ctx->out->name);
  if (s != WEIR_OK) {
    if (ctx->out->ide) weir_ide_problem_free(ctx->out->ide);
    else weir_ifds_problem_free(ctx->out->ifds);
    ctx->out->ide = NULL;
    ctx->out->ifds = NULL;
    return s;
  }
  fill_stats(ctx, live, generable);
  return WEIR_OK;
}
