"""`weir bench` defaults (issue 27 item 1): a kernel measured under a time
budget per scenario, a line per scenario as it completes, the full matrix
behind --all-scenarios, --runs N as an explicit override, JSON on standard
output kept valid. Figures are never asserted, only counts and shapes.
Usage: check_bench_defaults.py WEIR"""
import json
import re
import subprocess
import sys

weir = sys.argv[1]
failures = []
LINE = re.compile(r"^([a-z-]+) on (\S+): .*, (\d+) runs?: median .* per (dispatch|upload|readback|copy)")
DISPATCH = ["fence-per-dispatch", "sequence", "repeated"]


def run(*args, rc=0):
    p = subprocess.run([weir, "bench", *args], capture_output=True, text=True, timeout=300)
    if p.returncode != rc:
        failures.append(f"weir bench {' '.join(args)}: exit {p.returncode}, expected {rc}\n"
                        f"{p.stdout}{p.stderr}")
    return p


def scenario_lines(text):
    """The per-scenario lines, in order, and where the table starts."""
    lines = text.splitlines()
    table = next((i for i, l in enumerate(lines) if l.startswith("backend ")), len(lines))
    found = [(i, LINE.match(l)) for i, l in enumerate(lines)]
    return [(i, m.group(1), int(m.group(3))) for i, m in found if m], table


# 1. The default: the three dispatch scenarios of the program, each under the
#    time budget (a short one here), one line each before the table.
p = run("--backend", "cpu", "--program", "fill_u32", "--steps", "50", "--min-time", "0.02")
got, table = scenario_lines(p.stdout)
if [name for _, name, _ in got] != DISPATCH:
    failures.append(f"default scenarios {[n for _, n, _ in got]}, expected {DISPATCH}:\n{p.stdout}")
if any(i > table for i, _, _ in got):
    failures.append(f"a scenario line comes after the table:\n{p.stdout}")
if any(runs < 3 for _, _, runs in got):
    failures.append(f"a time budget took fewer than 3 runs:\n{p.stdout}")
if "upload-many" in p.stdout or "ranged-readback" in p.stdout:
    failures.append(f"transfer scenarios ran by default:\n{p.stdout}")
if "one after another" not in p.stderr or "0.02 s of timed runs" not in p.stderr:
    failures.append(f"the progress line does not name the budget:\n{p.stderr}")

# 2. The full matrix behind --all-scenarios; --runs N is exact.
p = run("--backend", "cpu", "--all-scenarios", "--runs", "2", "--steps", "8", "--readback-max", "4K",
        "--copy-size", "64K", "--upload-count", "2", "--json", "-")
report = None
try:
    report = json.loads(p.stdout)  # the lines and the table went to stderr
except ValueError as e:
    failures.append(f"--json - is not valid JSON ({e}):\n{p.stdout[:2000]}")
if report is not None:
    names = [r["scenario"] for r in report["records"]]
    expected = DISPATCH + ["upload-many", "upload-single"] + ["ranged-readback"] * 3 + ["copy"]
    if names != expected:
        failures.append(f"--all-scenarios records {names}, expected {expected}")
    if any(r["runs"] != 2 or len(r["samples"]["wall_ns"]) != 2 for r in report["records"]):
        failures.append("--runs 2: a record does not have exactly 2 runs")
got, _ = scenario_lines(p.stderr)
if len(got) != 9:
    failures.append(f"--json -: expected 9 scenario lines on stderr, got {len(got)}:\n{p.stderr}")

# 3. --quiet: no lines, the table stays; a time budget's runs in the JSON.
p = run("--backend", "cpu", "--scenario", "sequence", "--steps", "50", "--min-time", "0.01", "--quiet")
if scenario_lines(p.stdout)[0] or "backend " not in p.stdout:
    failures.append(f"--quiet: lines printed or no table:\n{p.stdout}")

# 4. Bad values are refused with a Fix.
for args in (["--min-time", "0"], ["--min-time", "soon"], ["--runs", "0"],
             ["--all-scenarios", "--scenario", "sequence"]):
    p = run("--backend", "cpu", *args, rc=2)
    if "Fix:" not in p.stderr:
        failures.append(f"weir bench {' '.join(args)}: no Fix: {p.stderr}")

# 5. --help documents the new defaults.
p = run("--help")
for word in ("--min-time S (0.5)", "--all-scenarios", "--runs N"):
    if word not in p.stdout:
        failures.append(f"--help does not mention {word}")

for f in failures:
    print("FAIL:", f)
print("bench defaults:", "ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
