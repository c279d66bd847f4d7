#!/usr/bin/env python3
"""Runs `weir analyze --analysis SPEC` on C programs and compares its SARIF
findings with the programs' markers, the syntax of tests/llvm (there the
markers are checked in process, by test_llvm_programs.c; an analysis plugin
runs only through the command, so this is the same check from outside):

  EXPECT[-O0|-O2] RULE [from=NAME]   a finding that must be reported there
  EXPECT-NOT RULE                    for readers: the line stays clean
  KNOWN-FP[-O0|-O2] RULE             allowed, not required (documented limits)
  KNOWN-FN[-O0|-O2] RULE

Every finding must be expected (or a KNOWN-FP); every EXPECT must be found,
from the source NAME when from= is given. Each program is compiled with
clang-14 -g at -O0 and -O2 and solved by the engine on `--backend`.

usage: check_markers.py WEIR CLANG ANALYSIS_SPEC WORK PROGRAM.c... [--backend B]
exit 0: all match; 1: a mismatch (listed); 2: bad usage or a tool failed.
"""
import json
import os
import re
import subprocess
import sys

MARK = re.compile(r"(EXPECT|KNOWN-FP|KNOWN-FN)(-NOT|-O0|-O2)? ([a-z0-9][a-z0-9._-]*)(?: from=([A-Za-z0-9_]+))?")


def markers(path, level):
    """(line, rule, from, kind) of the markers that hold at -O`level`."""
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            for m in MARK.finditer(line):
                kind, suffix, rule, source = m.groups()
                if suffix == "-NOT" or (suffix in ("-O0", "-O2") and suffix != "-O%d" % level):
                    continue
                out.append((number, rule, source, kind))
    return out


def findings(sarif):
    """(line, rule, sources) of each result."""
    out = []
    for r in json.load(open(sarif))["runs"][0]["results"]:
        line = r["locations"][0]["physicalLocation"]["region"]["startLine"]
        sources = [x["message"]["text"][len("source: "):] for x in r.get("relatedLocations", [])]
        out.append((line, r["ruleId"], sources))
    return out


def check(weir, clang, spec, work, program, level, backend):
    name = os.path.splitext(os.path.basename(program))[0]
    bc = os.path.join(work, "%s.O%d.bc" % (name, level))
    sarif = os.path.join(work, "%s.O%d.sarif" % (name, level))
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)  # clang-14 does not need the sanitizer set-up of the tests
    subprocess.run([clang, "-g", "-O%d" % level, "-w", "-emit-llvm", "-c", program, "-o", bc], check=True, env=env)
    run = subprocess.run([weir, "analyze", "--analysis", spec, bc, "--sarif", sarif, "--quiet",
                          "--backend", backend], capture_output=True, text=True)
    if run.returncode != 0:
        print("%s -O%d: weir analyze exited %d: %s" % (name, level, run.returncode, run.stderr.strip()))
        sys.exit(2)
    got, want, errors = findings(sarif), markers(program, level), []
    for line, rule, source, kind in want:
        if kind != "EXPECT":
            continue
        hit = [f for f in got if f[0] == line and f[1] == rule]
        if not hit:
            errors.append("line %d: expected %s, not reported" % (line, rule))
        elif source and not any(source in f[2] for f in hit):
            errors.append("line %d: %s reported from %s, expected from=%s" % (line, rule, hit[0][2], source))
    for line, rule, sources in got:
        if not any(m[0] == line and m[1] == rule and m[3] in ("EXPECT", "KNOWN-FP") for m in want):
            errors.append("line %d: %s reported (sources %s) but not expected" % (line, rule, sources))
    for e in errors:
        print("%s -O%d: %s" % (name, level, e))
    print("%s -O%d: %d findings, %d expected: %s" % (name, level, len(got),
          sum(1 for m in want if m[3] == "EXPECT"), "FAIL" if errors else "ok"))
    return not errors


def main(argv):
    backend = "cpu"
    if "--backend" in argv:
        i = argv.index("--backend")
        backend = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) < 6:
        print(__doc__)
        return 2
    weir, clang, spec, work, programs = argv[1], argv[2], argv[3], argv[4], argv[5:]
    os.makedirs(work, exist_ok=True)
    ok = True
    for program in programs:
        for level in (0, 2):
            ok = check(weir, clang, spec, work, program, level, backend) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
