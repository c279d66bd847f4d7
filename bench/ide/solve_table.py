#!/usr/bin/env python3
"""IDE against IFDS on the same generated graph, whole processes side by side.

For each preset and family, `weir gen PRESET ... --seed S` writes the IFDS
problem and `weir gen PRESET ... --seed S --ide FAMILY` the same graph with
edge functions (docs/ide-format.md). The IFDS reference (`weir solve
--solver reference`) and the IDE reference (`weir ide`) run interleaved run
by run, so a shared machine's noise hits both alike; the table gives the
medians of wall time and peak RSS, their ratio (the cost of the values), and
checks that both solvers find the same (node, fact) holds and path-edge count
(an IDE problem's reachability is its IFDS problem's). No timing is asserted:
a difference in holds is the only failure (exit 1).

With --engine BACKENDS (default cpu,vulkan; '' for none) the resident IDE
engine (`weir ide --backend B`) runs interleaved with the reference too: a
second table gives the solve time each solver reports (`--stats`: load and
writing left out), phase 1's device rounds and the targets it recomputed
over them, phase 0's IFDS iterations,
the engine's peak device bytes per path edge, and checks that its result file
is the reference's byte for byte (exit 1 when not).

  bench/ide/solve_table.py --weir build/weir --repeat 3 \\
      --gen realistic-200k="realistic --nodes 200000" --json ide.json
"""
import argparse
import hashlib
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile


def run(cmd, tmp):
    """Runs cmd under /usr/bin/time (so that the peak RSS is the solver's
    own, not a copy of this script's at fork); returns (wall s, peak MiB)."""
    figures = os.path.join(tmp, "time.txt")
    proc = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", figures] + cmd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"solve_table: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}\n"
                 "Fix: run the command by hand to see the whole message.")
    with open(figures) as f:
        wall, kib = f.read().split()[-2:]
    return float(wall), int(kib) / 1024.0


def holds(path):
    """The path-edge count and a digest of the (node, fact) holds of a result
    file (IFDS: `N F` lines; IDE: `N F VALUE`), read as a stream."""
    digest = hashlib.sha256()
    with open(path) as f:
        f.readline()
        edges = int(f.readline().split()[1])
        f.readline()
        for line in f:
            node_fact = line.split()[:2]
            digest.update((" ".join(node_fact) + "\n").encode())
    return edges, digest.hexdigest()


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def solve_stats(cmd, tmp):
    """Runs `weir ide ... --stats` and returns its figures (a dict)."""
    stats = os.path.join(tmp, "stats.json")
    run(cmd + ["--stats", stats], tmp)
    with open(stats) as f:
        return json.load(f)


def engine_row(args, name, family, ide, tmp, backends):
    """Reference and engine (on each backend) interleaved, medians."""
    ref_out = os.path.join(tmp, "ref.ide.txt")
    solvers = {"reference": [args.weir, "ide", ide, "-o", ref_out]}
    for b in backends:
        solvers[b] = [args.weir, "ide", ide, "--backend", b, "-o", os.path.join(tmp, f"{b}.ide.txt")]
    figures = {k: [] for k in solvers}
    for _ in range(args.repeat):
        for k, cmd in solvers.items():
            figures[k].append(solve_stats(cmd, tmp))
    row = {"problem": name, "family": family, "path_edges": figures["reference"][0]["path_edges"],
           "reference_s": statistics.median(f["seconds"] for f in figures["reference"])}
    want = digest(ref_out)
    for b in backends:
        last = figures[b][-1]
        row[b] = {"solve_s": statistics.median(f["seconds"] for f in figures[b]),
                  "rounds": last["iterations"], "ifds_iterations": last["ifds_iterations"],
                  "rules": last["rules"], "windows": last["windows"],
                  "target_visits": last.get("target_visits"),  # absent before the delta-driven phase 1
                  "peak_bytes_per_path_edge": last["peak_resident_bytes"] / max(last["path_edges"], 1),
                  "identical": digest(os.path.join(tmp, f"{b}.ide.txt")) == want}
    return row


def visits(figures):
    """Targets phase 1 recomputed; an engine without the figure recomputed
    every target in every round."""
    v = figures.get("target_visits")
    return f"{v:,}" if v is not None else "—"


def print_engine_table(rows, backends):
    print()
    print("| problem | family | path edges | reference s | " +
          " | ".join(f"engine {b} s" for b in backends) +
          " | rounds (phase 1) | targets recomputed (phase 1) | IFDS iterations (phase 0) | peak B / path edge | identical |")
    print("|---|---|---|---|" + "---|" * len(backends) + "---|---|---|---|---|")
    for r in rows:
        first = r[backends[0]]
        same = all(r[b]["identical"] for b in backends)
        print(f"| {r['problem']} | {r['family']} | {r['path_edges']:,} | {r['reference_s']:.3f} | " +
              " | ".join(f"{r[b]['solve_s']:.3f}" for b in backends) +
              f" | {first['rounds']} | {visits(first)} | {first['ifds_iterations']} | "
              f"{first['peak_bytes_per_path_edge']:.1f} | {'yes' if same else 'NO'} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weir", default="build/weir", help="the weir command (default: build/weir)")
    ap.add_argument("--gen", action="append", default=[], metavar='NAME="PRESET ARGS"',
                    help="a generated problem (repeatable); default: realistic with 200 000 nodes")
    ap.add_argument("--families", default="linear,typestate", help="linear, typestate or both")
    ap.add_argument("--states", type=int, default=4, help="typestate states (1..32, default 4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each solver (medians)")
    ap.add_argument("--json", help="also write the figures there")
    ap.add_argument("--engine", default="cpu,vulkan",
                    help="backends of the resident IDE engine to compare (default cpu,vulkan; '' for none)")
    ap.add_argument("--no-ifds", action="store_true", help="leave out the IFDS-against-IDE table")
    args = ap.parse_args()
    gens = args.gen or ['realistic-200k=realistic --nodes 200000']
    families = [f for f in args.families.split(",") if f]
    for f in families:
        if f not in ("linear", "typestate"):
            sys.exit(f"solve_table: unknown family '{f}'. Fix: pass --families linear,typestate.")
    backends = [b for b in args.engine.split(",") if b]
    rows, engine_rows, failed = [], [], False
    with tempfile.TemporaryDirectory(prefix="weir-ide-table-") as tmp:
        for spec in gens:
            if "=" not in spec:
                sys.exit(f"solve_table: --gen '{spec}' has no NAME=. Fix: --gen NAME=\"PRESET ARGS\".")
            name, preset = spec.split("=", 1)
            ifds = os.path.join(tmp, name + ".ifds")
            gen = [args.weir, "gen"] + shlex.split(preset) + ["--seed", str(args.seed)]
            subprocess.run(gen + ["-o", ifds], check=True)
            for family in families:
                ide = os.path.join(tmp, f"{name}-{family}.ide")
                extra = ["--ide", family] + (["--states", str(args.states)] if family == "typestate" else [])
                subprocess.run(gen + extra + ["-o", ide], check=True)
                if backends:
                    engine_rows.append(engine_row(args, name, family, ide, tmp, backends))
                    failed |= not all(engine_rows[-1][b]["identical"] for b in backends)
                if args.no_ifds:
                    continue
                out_ifds, out_ide = os.path.join(tmp, "r.ifds"), os.path.join(tmp, "r.ide")
                figures = {"ifds": [], "ide": []}
                for _ in range(args.repeat):  # interleaved, run by run
                    figures["ifds"].append(run([args.weir, "solve", ifds, "--solver", "reference", "-o", out_ifds], tmp))
                    figures["ide"].append(run([args.weir, "ide", ide, "-o", out_ide], tmp))
                same = holds(out_ifds) == holds(out_ide)
                failed |= not same
                med = {k: (statistics.median(w for w, _ in v), statistics.median(m for _, m in v))
                       for k, v in figures.items()}
                rows.append({"problem": name, "family": family, "ifds_wall_s": med["ifds"][0],
                             "ide_wall_s": med["ide"][0], "ifds_peak_mib": med["ifds"][1],
                             "ide_peak_mib": med["ide"][1], "path_edges": holds(out_ide)[0],
                             "same_holds": same, "bytes": os.path.getsize(ide)})
    if rows:
        print("| problem | family | path edges | IFDS reference s, MiB | IDE reference s, MiB | IDE / IFDS wall | same holds |")
        print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['problem']} | {r['family']} | {r['path_edges']:,} | {r['ifds_wall_s']:.3f}, "
              f"{r['ifds_peak_mib']:.1f} | {r['ide_wall_s']:.3f}, {r['ide_peak_mib']:.1f} | "
              f"{r['ide_wall_s'] / max(r['ifds_wall_s'], 1e-9):.2f} | {'yes' if r['same_holds'] else 'NO'} |")
    if engine_rows:
        print_engine_table(engine_rows, backends)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"repeat": args.repeat, "rows": rows, "engine_rows": engine_rows}, f, indent=1)
    if failed:
        print("solve_table: the IDE and IFDS references found different holds, or the engine's "
              "result differs from the reference's, on a problem above.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
