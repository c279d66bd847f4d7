/* `weir gen`: writes a generated IFDS problem (see include/weir/ifds_gen.h),
 * or with --ide an IDE problem over it (weir_ide_generate, weir/ide.h). */
#include <stdio.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "weir/ide.h"
#include "weir/ifds_gen.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir gen PRESET [--procs N] [--nodes-per-proc N] [--nodes N] [--facts N]\n"
          "                       [--seeds N] [--seed S] [--ide linear|typestate [--states S]]\n"
          "                       [-o FILE]\n\n"
          "Writes a valid IFDS problem (docs/ifds-format.md); the same options give the\n"
          "same bytes. Presets:\n"
          "  chain       deep call chain: procedure i calls i+1\n"
          "  fanout      main calls every procedure, which all call one shared procedure\n"
          "  recursive   mutual recursion: i calls i+1 mod P, and itself or i-1\n"
          "  wide-facts  many facts (2048), few nodes, flows with many pairs\n"
          "  loops       procedures with many back edges (loops)\n"
          "  realistic   small and a few large procedures, ~10%% call nodes, indirect calls,\n"
          "              gen/kill flows, some unreachable procedures\n\n"
          "  --procs N           procedures (preset default otherwise)\n"
          "  --nodes-per-proc N  average nodes per procedure (>= 2)\n"
          "  --nodes N           about N nodes in all: sets --procs to N / nodes-per-proc\n"
          "  --facts N           facts, the zero fact included (>= 1)\n"
          "  --seeds N           seed lines (the first is main's start with fact 0)\n"
          "  --seed S            random seed (default 1)\n"
          "  --ide FAMILY        an IDE problem (docs/ide-format.md) over the same graph:\n"
          "                      edge functions of FAMILY (linear or typestate) on some pairs\n"
          "  --states S          with --ide typestate: states, 1..32 (default 4)\n"
          "  -o FILE             output file (default: standard output)\n\n"
          "Example: weir gen realistic --nodes 2000000 -o big.ifds\n");
}

static int parse_u32(const char *flag, const char *text, uint32_t *out) {
  uint64_t v;
  if (!text || weir_cli_parse_u64(text, &v) != 0 || v > UINT32_MAX) {
    fprintf(stderr,
            "weir gen: %s needs a number 0..4294967295 (found '%s'). Fix: see `weir gen "
            "--help`.\n",
            flag, text ? text : "nothing");
    return -1;
  }
  *out = (uint32_t)v;
  return 0;
}

/* Parses the options after PRESET; 0 on success. */
/* What --ide and --states ask for (family 0: plain IFDS). */
typedef struct ide_choice {
  weir_ide_family family;
  uint32_t states;
} ide_choice;

static int parse_family(const char *v, ide_choice *ide) {
  if (v && strcmp(v, "linear") == 0) return ide->family = WEIR_IDE_LINEAR, 0;
  if (v && strcmp(v, "typestate") == 0) return ide->family = WEIR_IDE_TYPESTATE, 0;
  fprintf(stderr, "weir gen: --ide needs linear or typestate (found '%s'). Fix: see `weir gen "
          "--help`.\n", v ? v : "nothing");
  return -1;
}

/* --states only with --ide typestate (not silently ignored). */
static int check_states(int argc, char **argv, const ide_choice *ide) {
  int given = 0;
  for (int i = 2; i + 1 < argc; i += 2) given |= strcmp(argv[i], "--states") == 0;
  if (given && ide->family != WEIR_IDE_TYPESTATE) {
    fprintf(stderr, "weir gen: --states is for typestate problems only (found %s). Fix: pass "
            "--ide typestate with --states S, or drop --states.\n",
            ide->family == WEIR_IDE_LINEAR ? "--ide linear" : "no --ide");
    return -1;
  }
  return 0;
}

/* --states S: 1..32, a usage error otherwise (not the library's refusal
 * after every other option was taken). */
static int parse_states(const char *v, uint32_t *states) {
  uint64_t n;
  if (v && weir_cli_parse_u64(v, &n) == 0 && n >= 1 && n <= WEIR_IDE_MAX_STATES) {
    *states = (uint32_t)n;
    return 0;
  }
  fprintf(stderr, "weir gen: --states must be 1..%u (found '%s'). Fix: pass --states S with S "
          "from 1 to %u (one bit per state).\n", WEIR_IDE_MAX_STATES, v ? v : "nothing",
          WEIR_IDE_MAX_STATES);
  return -1;
}

static int parse(int argc, char **argv, weir_ifds_gen_options *o, uint32_t *nodes,
                 const char **path, ide_choice *ide) {
  /* Every option takes a value: each step consumes the pair. */
  for (int i = 2; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = 0;
    if (strcmp(a, "-o") == 0 && v)
      *path = v;
    else if (strcmp(a, "--procs") == 0)
      bad = parse_u32(a, v, &o->procs);
    else if (strcmp(a, "--nodes-per-proc") == 0)
      bad = parse_u32(a, v, &o->nodes_per_proc);
    else if (strcmp(a, "--nodes") == 0)
      bad = parse_u32(a, v, nodes);
    else if (strcmp(a, "--facts") == 0)
      bad = parse_u32(a, v, &o->facts);
    else if (strcmp(a, "--seeds") == 0)
      bad = parse_u32(a, v, &o->seeds);
    else if (strcmp(a, "--ide") == 0)
      bad = parse_family(v, ide);
    else if (strcmp(a, "--states") == 0)
      bad = parse_states(v, &ide->states);
    else if (strcmp(a, "--seed") == 0) {
      if (!v || weir_cli_parse_u64(v, &o->seed) != 0) {
        fprintf(stderr,
                "weir gen: --seed needs a number (found '%s'). Fix: see `weir gen --help`.\n",
                v ? v : "nothing");
        bad = 1;
      }
    } else {
      fprintf(stderr, "weir gen: unknown option '%s'%s. Fix: see `weir gen --help`.\n", a,
              v || strcmp(a, "-o") ? "" : " (missing its value)");
      return -1;
    }
    if (bad) return -1;
  }
  return check_states(argc, argv, ide);
}

int weir_cmd_gen(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout);
    return 0;
  }
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  weir_ifds_gen_options o = {.seed = 1};
  if (weir_ifds_preset_parse(argv[1], &o.preset) != WEIR_OK)
    return weir_cli_report("gen", WEIR_ERR_INVALID_ARGUMENT);
  uint32_t nodes = 0;
  const char *path = NULL;
  ide_choice ide = {0, 4};
  if (parse(argc, argv, &o, &nodes, &path, &ide) != 0) return 2;
  weir_ifds_gen_defaults(&o);
  if (nodes) o.procs = nodes / o.nodes_per_proc ? nodes / o.nodes_per_proc : 1;
  /* Through a temporary file: a full disk leaves no truncated problem behind. */
  weir_cli_output *output = NULL;
  FILE *out = NULL;
  weir_status s = weir_cli_output_open(path ? path : "-", NULL, &output, &out);
  if (s == WEIR_OK)
    s = ide.family ? weir_ide_generate(&o, ide.family, ide.states, out) : weir_ifds_generate(&o, out);
  if (s == WEIR_OK) {
    s = weir_cli_output_commit(output);
  } else if (output) {
    weir_cli_output_abort(output);
    weir_fail_context(s, "writing '%s'", path ? path : "standard output");
  }
  return weir_cli_report("gen", s);
}
