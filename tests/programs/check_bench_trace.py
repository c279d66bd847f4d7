"""Runs `weir bench --trace` (and a sequence file) on cpu and checks the trace:
valid JSON, every named track has events, host submit/wait spans exist, and
step and submit span names carry sizes. Usage: check_bench_trace.py WEIR SEQFILE OUTDIR"""
import json
import os
import re
import subprocess
import sys

weir, seqfile, outdir = sys.argv[1:4]
os.makedirs(outdir, exist_ok=True)
runs = {
    "scenarios": [weir, "bench", "--backend", "cpu", "--all-scenarios", "--program", "fill_u32", "--steps", "8",
                  "--runs", "2", "--readback-max", "4K", "--copy-size", "64K",
                  "--upload-count", "2", "--quiet"],
    "seqfile": [weir, "bench", "run", seqfile, "--backend", "cpu", "--runs", "1", "--quiet"],
}
failures = []
for name, cmd in runs.items():
    path = os.path.join(outdir, name + ".trace.json")
    subprocess.run(cmd + ["--trace", path], check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e["ph"] == "M" and e["name"] == "thread_name"}
    procs = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    spans = [e for e in events if e["ph"] == "X"]
    used = {(e["pid"], e["tid"]) for e in spans}
    for key, track in tracks.items():
        if key not in used:
            failures.append(f"{name}: track '{track}' has no events")
    for pid in procs - {p for p, _ in used}:
        failures.append(f"{name}: process {pid} has no events")
    for e in spans:
        if (e["pid"], e["tid"]) not in tracks:
            failures.append(f"{name}: span '{e['name']}' on an unnamed track")
            break
    submits = [e for e in spans if e["cat"] == "host" and e["name"].startswith("submit ")]
    waits = [e for e in spans if e["cat"] == "host" and e["name"].startswith("wait")]
    steps = [e for e in spans if e["cat"] == "step"]
    if not submits or not waits or len(submits) != len(waits):
        failures.append(f"{name}: {len(submits)} submit and {len(waits)} wait host spans")
    if not steps:
        failures.append(f"{name}: no device (step) spans")
    size = re.compile(r"\(.*\d+(\.\d)? (B|KiB|MiB|GiB)")
    for e in steps + submits:
        if not size.search(e["name"]):
            failures.append(f"{name}: span name '{e['name']}' names no size")
            break
    print(f"{name}: {len(tracks)} tracks, {len(steps)} step spans, {len(submits)} submit/wait pairs")
    if name == "scenarios" and not any(e["name"] == "submit fill_u32 x8 (64 KiB)" for e in submits):
        failures.append(f"{name}: no 'submit fill_u32 x8 (64 KiB)' span: "
                        + ", ".join(sorted({e['name'] for e in submits})))
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
