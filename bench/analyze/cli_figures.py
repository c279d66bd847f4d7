#!/usr/bin/env python3
"""Figures of the `weir analyze` command itself, for any build of it (the
"before" one at commit 46addf5 takes one module; the current one also takes
several): runs it N times per (program, analysis, solver) under
/usr/bin/time -v, reads the summary line on stderr (functions, nodes, facts,
frontend, load, path edges, solve time, findings) and the peak RSS, prints
a Markdown table of medians and writes JSON plus the findings of the first
run of each (OUTDIR/LABEL-PROGRAM-ANALYSIS.txt). Figures only.

  cli_figures.py --weir BUILD/weir --label before --runs 3 --outdir DIR \\
      --program weir=weir.bc --config weir=taint.cfg --program btmon=btmon-O0.bc \\
      [--analyses taint,uninit] [--solvers reference,engine:cpu,engine:vulkan] [--timeout 300]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

# The summary line; the 46addf5 command and the current one differ in what
# sits between the fields ("from N linked modules", "(parse ..., points-to
# ...)", "prepared: ...", "on host"), so each field has its own pattern.
FIELDS = {
    "functions": r"(\d+) functions",
    "nodes": r"(\d+) nodes",
    "facts": r"(\d+) facts",
    "frontend": r"frontend ([\d.]+) s",
    "parse": r"parse ([\d.]+) s",
    "prepare": r"prepare ([\d.]+) s",
    "points_to": r"points-to ([\d.]+) s",
    "load": r"load ([\d.]+) s",
    "path_edges": r"(\d+) path edges",
    "solve": r"path edges in ([\d.]+) s",
    "findings": r"(\d+) findings?\b",
}


def parse_summary(stderr):
    """The fields of the last `weir analyze:` line, or None."""
    lines = [l for l in stderr.splitlines() if l.startswith("weir analyze: ") and "path edges" in l]
    if not lines:
        return None
    out = {}
    for key, pattern in FIELDS.items():
        m = re.search(pattern, lines[-1])
        out[key] = m.group(1) if m else None
    return out if out["nodes"] and out["path_edges"] else None


RSS = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")
WALL = re.compile(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)")


def run_once(cmd, timeout):
    """One run: (summary dict or None, peak RSS kB, wall s, stdout, note)."""
    full = ["/usr/bin/time", "-v", "timeout", str(timeout)] + cmd
    p = subprocess.run(full, capture_output=True, text=True)
    rss = RSS.search(p.stderr)
    wall = WALL.search(p.stderr)
    wall_s = None
    if wall:
        wall_s = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    summary = parse_summary(p.stderr)
    note = ""
    if not summary:
        tail = [l for l in p.stderr.splitlines() if l.strip() and not l.startswith("\t")][-1:]
        note = "exit %d%s: %s" % (p.returncode, " (timeout)" if p.returncode == 124 else "",
                                  tail[0] if tail else "")
    return (summary, int(rss.group(1)) if rss else 0, wall_s, p.stdout, note)


def measure(args, name, files, config, analysis, solver):
    cmd = [args.weir, "analyze", analysis] + files
    if config and analysis == "taint":
        cmd += ["--config", config]
    if solver != "reference":
        cmd += ["--solver", "engine", "--backend", solver.split(":", 1)[1]]
    runs = []
    for i in range(args.runs):
        summary, rss, wall, out, note = run_once(cmd, args.timeout)
        if summary is None:
            return {"program": name, "analysis": analysis, "solver": solver, "ok": False, "note": note,
                    "command": " ".join(cmd)}
        if i == 0:
            with open(os.path.join(args.outdir, "%s-%s-%s.txt" % (args.label, name, analysis)), "w") as f:
                f.write(out)
        runs.append((summary, rss, wall))
        if solver == "engine:vulkan" and wall and wall > args.timeout / 2:
            break  # one run is enough to show it is slow

    def med(key):
        values = [float(r[0][key]) for r in runs if r[0][key] is not None]
        return statistics.median(values) if values else None

    first = runs[0][0]
    return {"program": name, "analysis": analysis, "solver": solver, "ok": True, "runs": len(runs),
            "command": " ".join(cmd), "functions": int(first["functions"]), "nodes": int(first["nodes"]),
            "facts": int(first["facts"]), "path_edges": int(first["path_edges"]),
            "findings": int(first["findings"]), "seconds_frontend": med("frontend"),
            "seconds_load": med("load"), "seconds_solve": med("solve"), "seconds_parse": med("parse"),
            "seconds_prepare": med("prepare"), "seconds_points_to": med("points_to"),
            "seconds_wall": statistics.median(r[2] for r in runs if r[2] is not None),
            "maxrss_kb": int(statistics.median(r[1] for r in runs))}


def table(rows):
    def opt(v):
        return "–" if v is None else "%.3f" % v

    out = ["| program | analysis | solver | nodes | facts | path edges | frontend s | points-to s | prepare s | "
           "solve s | wall s | peak RSS MB | findings | runs |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r["ok"]:
            out.append("| %s | %s | %s | failed: %s |||||||||||" % (r["program"], r["analysis"], r["solver"],
                                                                   r["note"]))
            continue
        out.append("| %s | %s | %s | %d | %d | %d | %s | %s | %s | %s | %.2f | %.0f | %d | %d |" % (
            r["program"], r["analysis"], r["solver"], r["nodes"], r["facts"], r["path_edges"],
            opt(r["seconds_frontend"]), opt(r["seconds_points_to"]), opt(r["seconds_prepare"]),
            opt(r["seconds_solve"]), r["seconds_wall"], r["maxrss_kb"] / 1024.0, r["findings"], r["runs"]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weir", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--program", action="append", default=[], help="NAME=FILE[,FILE...]")
    ap.add_argument("--config", action="append", default=[], help="NAME=TAINT.cfg")
    ap.add_argument("--analyses", default="taint,uninit")
    ap.add_argument("--solvers", default="reference,engine:cpu")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per run")
    args = ap.parse_args()
    if not args.program or args.runs < 1:
        sys.exit("cli_figures.py: need --program NAME=FILE and --runs >= 1. Fix: see --help")
    os.makedirs(args.outdir, exist_ok=True)
    configs = dict(c.split("=", 1) for c in args.config)
    rows = []
    for spec in args.program:
        name, files = spec.split("=", 1)
        for analysis in args.analyses.split(","):
            for solver in args.solvers.split(","):
                print("cli_figures: %s %s %s ..." % (name, analysis, solver), file=sys.stderr, flush=True)
                rows.append(measure(args, name, files.split(","), configs.get(name), analysis, solver))
    text = table(rows)
    print(text)
    with open(os.path.join(args.outdir, "%s.json" % args.label), "w") as f:
        json.dump({"label": args.label, "weir": args.weir, "runs": args.runs, "rows": rows}, f, indent=1)
    with open(os.path.join(args.outdir, "%s.md" % args.label), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
