#!/usr/bin/env python3
"""IFDS across devices and ranks (issue #14): whole `weir solve` processes.

For each problem, solves it on 1, 2, 4 devices of one process
(`weir solve F --backend cpu:0,cpu:1,...`; 1 device is the plain engine)
and on 1, 2, 4 MPI ranks (`mpirun -n N weir solve F --mpi --backend cpu`),
interleaved run by run (every configuration once, then again, ... so that
the noise of a shared machine hits all alike), and prints the medians of
--repeat runs:

  solve s        the engine's solve time (--stats seconds_solve)
  wall s         the whole process (mpirun included for ranks)
  iterations, rounds (exchanges)
  exch B/edge    bytes exchanged between devices per path edge
  exch share     seconds_exchange / seconds_solve
  host syncs

Every result must be byte-identical to the reference solver's (checked
with a digest; exit 1 otherwise). Asserts nothing about timings.

  bench/distributed/dist_bench.py --weir build/weir --repeat 3 --json out.json
  bench/distributed/dist_bench.py --small          # minutes -> seconds
  bench/distributed/dist_bench.py --gen NAME="PRESET ARGS" --devices 1,2 --ranks ""
"""
import argparse
import hashlib
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PRESETS = {
    # bench/ifds/README.md's 2 M-node problem
    "realistic-2m": "realistic --procs 100000 --nodes-per-proc 20",
    # ~40 k contexts (procedure, entry fact): many facts enter many procedures
    "many-contexts": "realistic --procs 20000 --nodes-per-proc 10 --facts 256 --seeds 256",
}
SMALL = {
    "realistic-100k": "realistic --procs 5000 --nodes-per-proc 20",
    "many-contexts-small": "realistic --procs 4000 --nodes-per-proc 10 --facts 128 --seeds 64",
}


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(cmd, workdir):
    out = os.path.join(workdir, "result")
    stats = os.path.join(workdir, "stats.json")
    for p in (out, stats):
        if os.path.exists(p):
            os.remove(p)
    t0 = time.monotonic()
    proc = subprocess.run(cmd + ["-o", out, "--stats", stats], capture_output=True, text=True)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed (exit {proc.returncode}): "
                           f"{proc.stderr.strip()[-2000:]}")
    with open(stats) as f:
        st = json.load(f)
    st["seconds_wall"] = wall
    st["digest"] = digest(out)
    return st


def configurations(args):
    configs = []
    for d in [int(x) for x in args.devices.split(",") if x]:
        backend = ",".join(f"cpu:{i}" for i in range(d))
        configs.append((f"{d} device{'s' if d > 1 else ''}", "devices", d,
                        lambda f, b=backend: [args.weir, "solve", f, "--backend", b]))
    if args.ranks and shutil.which(args.mpiexec):
        for r in [int(x) for x in args.ranks.split(",") if x]:
            configs.append((f"{r} rank{'s' if r > 1 else ''}", "ranks", r,
                            lambda f, n=r: [args.mpiexec, "--allow-run-as-root", "--oversubscribe",
                                            "-n", str(n), args.weir, "solve", f, "--mpi",
                                            "--backend", args.rank_backend]))
    elif args.ranks:
        print(f"note: {args.mpiexec} not found: no MPI rows", file=sys.stderr)
    return configs


def med(samples, key):
    return statistics.median(s.get(key, 0) for s in samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weir", default="build/weir")
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--devices", default="1,2,4", help="device counts (cpu:0..), '' for none")
    ap.add_argument("--ranks", default="1,2,4", help="MPI rank counts, '' for none")
    ap.add_argument("--rank-backend", default="cpu", help="--backend of every rank")
    ap.add_argument("--gen", action="append", default=[], metavar="NAME=ARGS",
                    help="a problem from `weir gen ARGS` (default: realistic-2m, many-contexts)")
    ap.add_argument("--file", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--small", action="store_true", help="smaller default problems (seconds)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workdir")
    ap.add_argument("--json")
    args = ap.parse_args()
    if not os.access(args.weir, os.X_OK):
        sys.exit(f"dist_bench: no weir at {args.weir}. Fix: build it (cmake --build build) or "
                 "pass --weir PATH.")
    workdir = args.workdir or tempfile.mkdtemp(prefix="weir-dist-bench-")
    os.makedirs(workdir, exist_ok=True)
    problems = []
    gens = [g.split("=", 1) for g in args.gen]
    if not gens and not args.file:
        gens = list((SMALL if args.small else PRESETS).items())
    for name, gen in gens:
        path = os.path.join(workdir, name + ".ifds")
        if not os.path.exists(path):
            subprocess.run([args.weir, "gen"] + shlex.split(gen) + ["-o", path], check=True)
        problems.append((name, path, gen))
    for spec in args.file:
        name, path = spec.split("=", 1)
        problems.append((name, path, path))
    configs = configurations(args)
    report = {"problems": [], "repeat": args.repeat, "weir": args.weir}
    failed = False
    for name, path, origin in problems:
        ref = run([args.weir, "solve", path, "--solver", "reference"], workdir)
        samples = {label: [] for label, *_ in configs}
        for rep in range(args.repeat):
            for label, kind, n, cmd in configs:
                try:
                    st = run(cmd(path), workdir)
                except RuntimeError as e:
                    print(f"FAIL: {name}: {label}: {e}", file=sys.stderr)
                    failed = True
                    continue
                if st["digest"] != ref["digest"]:
                    print(f"FAIL: {name}: {label}: the result differs from the reference "
                          "solver's", file=sys.stderr)
                    failed = True
                samples[label].append(st)
        rows = []
        for label, kind, n, _ in configs:
            s = samples[label]
            if not s:
                continue
            edges = med(s, "path_edges")
            solve = med(s, "seconds_solve")
            rows.append({
                "config": label, "kind": kind, "count": n, "runs": len(s),
                "seconds_solve": solve, "seconds_wall": med(s, "seconds_wall"),
                "iterations": med(s, "iterations"), "rounds": med(s, "rounds"),
                "exchanged_bytes": med(s, "exchanged_bytes"),
                "exchanged_bytes_per_path_edge": med(s, "exchanged_bytes") / edges if edges else 0,
                "exchange_share": statistics.median(
                    x.get("seconds_exchange", 0) / x["seconds_solve"] if x["seconds_solve"] else 0
                    for x in s),
                "host_syncs": med(s, "host_syncs"), "path_edges": edges,
                "samples": s,
            })
        report["problems"].append({"name": name, "origin": origin,
                                   "path_edges": ref["path_edges"],
                                   "reference_seconds_solve": ref["seconds_solve"],
                                   "reference_seconds_wall": ref["seconds_wall"], "rows": rows})
        print(f"\n{name} ({origin}): {ref['path_edges']} path edges; reference solver "
              f"{ref['seconds_solve']:.3f} s solve, {ref['seconds_wall']:.3f} s wall "
              f"(medians of {args.repeat}, interleaved)\n")
        print("| config | solve s | wall s | iterations | rounds | exch B/edge | exch share "
              "| host syncs |")
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['config']} | {r['seconds_solve']:.3f} | {r['seconds_wall']:.3f} | "
                  f"{r['iterations']:.0f} | {r['rounds']:.0f} | "
                  f"{r['exchanged_bytes_per_path_edge']:.2f} | {100 * r['exchange_share']:.1f}% | "
                  f"{r['host_syncs']:.0f} |")
    summary = json.dumps(report, indent=1)
    if args.json:
        with open(args.json, "w") as f:
            f.write(summary)
    else:
        print("\n" + json.dumps([{p["name"]: [{k: v for k, v in r.items() if k != "samples"}
                                              for r in p["rows"]]} for p in report["problems"]]))
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
