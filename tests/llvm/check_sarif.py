#!/usr/bin/env python3
"""Checks that a file is SARIF 2.1.0 as `weir analyze --sarif` writes it, with
structure checks only (no schema download, no network):

- version, $schema, one run, tool.driver name/version;
- rules with id, name, short/full description, help (text and markdown),
  default level, properties.tags (security, external/cwe/cwe-N) and a numeric
  security-severity;
- originalUriBaseIds: %SRCROOT% as a file:// URI ending in '/';
- results: ruleId among the rules and ruleIndex pointing at it, level,
  message, a physical location (relative URI with uriBaseId %SRCROOT%, or an
  absolute file:// URI), a region, the function as logical location,
  partialFingerprints; related locations and code flows when asked.

usage: check_sarif.py FILE [--rules R1,R2] [--min-results N] [--related]
                      [--min-steps N] [--kinds K1,K2] [--root DIR] [--uri-prefix P]
                      [--fingerprints OUT]
  --rules        every result's ruleId is one of these (and each is declared)
  --related      every result has a related source location
  --min-steps N  every result has a code flow of at least N steps
  --kinds        some code-flow step has each of these kinds (call, return, ...)
  --root DIR     %SRCROOT% is file://DIR/
  --uri-prefix P every relative result URI starts with P
  --fingerprints OUT  writes "ruleId fingerprint" per result to OUT
"""
import argparse
import json
import sys
from urllib.parse import urlparse, unquote

ARGS = None


def fail(what):
    sys.exit("check_sarif: %s: %s" % (ARGS.file, what))


def check_rule(rule):
    for key in ("id", "name"):
        if not rule.get(key):
            fail("rule without %s: %r" % (key, rule))
    for key in ("shortDescription", "fullDescription"):
        if not rule.get(key, {}).get("text"):
            fail("rule %s lacks %s.text" % (rule["id"], key))
    help_ = rule.get("help", {})
    if not help_.get("text") or not help_.get("markdown"):
        fail("rule %s lacks help text and markdown" % rule["id"])
    if rule.get("defaultConfiguration", {}).get("level") not in ("error", "warning", "note"):
        fail("rule %s has no valid default level" % rule["id"])
    props = rule.get("properties", {})
    tags = props.get("tags", [])
    if "security" not in tags or not any(t.startswith("external/cwe/cwe-") for t in tags):
        fail("rule %s tags %r lack security and a CWE" % (rule["id"], tags))
    try:
        severity = float(props.get("security-severity"))
    except (TypeError, ValueError):
        fail("rule %s security-severity %r is not a number" % (rule["id"], props.get("security-severity")))
    if not 0.0 <= severity <= 10.0:
        fail("rule %s security-severity %s outside 0..10" % (rule["id"], severity))


def check_location(loc, bases, what, need_region=True):
    phys = loc.get("physicalLocation")
    if not phys:
        fail("%s without physicalLocation" % what)
    art = phys["artifactLocation"]
    uri = art.get("uri", "")
    if "uriBaseId" in art:
        if art["uriBaseId"] not in bases:
            fail("%s uriBaseId %r not in originalUriBaseIds" % (what, art["uriBaseId"]))
        if uri.startswith("/") or urlparse(uri).scheme:
            fail("%s uri %r is not relative although it has a uriBaseId" % (what, uri))
        if ARGS.uri_prefix and not uri.startswith(ARGS.uri_prefix):
            fail("%s uri %r does not start with %r" % (what, uri, ARGS.uri_prefix))
    elif not uri.startswith("file:///"):
        fail("%s uri %r is neither relative to %%SRCROOT%% nor an absolute file:// URI" % (what, uri))
    region = phys.get("region")
    if region and region.get("startLine", 0) < 1:
        fail("%s with a region without startLine" % what)
    # Without debug info there is no region: the message names the instruction.
    if need_region and not region and "instruction" not in loc.get("message", {}).get("text", ""):
        fail("%s without region and without an instruction in its message" % what)
    logical = loc.get("logicalLocations", [{}])[0]
    if logical.get("kind") != "function" or not logical.get("name"):
        fail("%s: logical location is not a named function" % what)


def check_code_flow(result, bases, kinds_seen):
    flows = result.get("codeFlows", [])
    if not flows:
        return 0
    steps = flows[0]["threadFlows"][0]["locations"]
    order = 0
    for k, step in enumerate(steps):
        check_location(step["location"], bases, "code-flow step %d" % (k + 1), need_region=False)
        if not step["location"].get("message", {}).get("text"):
            fail("code-flow step %d without a message" % (k + 1))
        if step.get("executionOrder", 0) <= order or step.get("nestingLevel", 0) < 0:
            fail("code-flow step %d: executionOrder/nestingLevel %r/%r" %
                 (k + 1, step.get("executionOrder"), step.get("nestingLevel")))
        order = step["executionOrder"]
        kinds_seen.update(step.get("kinds", []))
    last = steps[-1]["location"]["physicalLocation"].get("region")
    if last != result["locations"][0]["physicalLocation"].get("region"):
        fail("the code flow does not end at the result's location")
    return len(steps)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--rules", default="")
    parser.add_argument("--min-results", type=int, default=1)
    parser.add_argument("--related", action="store_true")
    parser.add_argument("--min-steps", type=int, default=0)
    parser.add_argument("--kinds", default="")
    parser.add_argument("--root")
    parser.add_argument("--uri-prefix")
    parser.add_argument("--fingerprints")
    ARGS = parser.parse_args()
    with open(ARGS.file, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("version") != "2.1.0":
        fail("version is %r, expected '2.1.0'" % doc.get("version"))
    if "sarif-2.1.0" not in doc.get("$schema", ""):
        fail("$schema does not name SARIF 2.1.0")
    runs = doc.get("runs")
    if not isinstance(runs, list) or len(runs) != 1:
        fail("expected exactly one run")
    run = runs[0]
    driver = run["tool"]["driver"]
    if driver.get("name") != "weir" or not driver.get("version"):
        fail("tool.driver needs name 'weir' and a version")
    rules = driver.get("rules", [])
    ids = [r.get("id") for r in rules]
    for r in rules:
        check_rule(r)
    wanted = [r for r in ARGS.rules.split(",") if r]
    for r in wanted:
        if r not in ids:
            fail("rule %r not declared (rules: %r)" % (r, ids))
    bases = run.get("originalUriBaseIds", {})
    root = bases.get("%SRCROOT%", {}).get("uri", "")
    if not root.startswith("file:///") or not root.endswith("/"):
        fail("originalUriBaseIds %%SRCROOT%% %r is not a file:// URI ending in '/'" % root)
    if ARGS.root and unquote(urlparse(root).path).rstrip("/") != ARGS.root.rstrip("/"):
        fail("%%SRCROOT%% is %r, expected file://%s/" % (root, ARGS.root))
    results = run.get("results")
    if not isinstance(results, list) or len(results) < ARGS.min_results:
        fail("expected at least %d results, found %r" % (ARGS.min_results, results))
    kinds_seen = set()
    prints = []
    for n, r in enumerate(results):
        what = "result %d" % (n + 1)
        if r.get("ruleId") not in ids or ids.index(r["ruleId"]) != r.get("ruleIndex"):
            fail("%s: ruleId/ruleIndex %r/%r do not match the rules %r" % (what, r.get("ruleId"), r.get("ruleIndex"), ids))
        if wanted and r["ruleId"] not in wanted:
            fail("%s: rule %r, expected one of %r" % (what, r["ruleId"], wanted))
        if r.get("level") not in ("error", "warning", "note"):
            fail("%s: level %r" % (what, r.get("level")))
        if not r.get("message", {}).get("text"):
            fail("%s without message text" % what)
        check_location(r["locations"][0], bases, what)
        fingerprints = r.get("partialFingerprints", {})
        if not fingerprints or not all(isinstance(v, str) and v for v in fingerprints.values()):
            fail("%s without partialFingerprints" % what)
        prints.append("%s %s" % (r["ruleId"], " ".join(sorted(fingerprints.values()))))
        if ARGS.related:
            related = r.get("relatedLocations", [])
            if not related:
                fail("%s without a related source location" % what)
            check_location(related[0], bases, what + " related location")
            if not related[0].get("message", {}).get("text", "").startswith("source: "):
                fail("%s: related location message %r" % (what, related[0].get("message")))
        steps = check_code_flow(r, bases, kinds_seen)
        if steps < ARGS.min_steps:
            fail("%s: code flow of %d steps, expected at least %d" % (what, steps, ARGS.min_steps))
    for kind in [k for k in ARGS.kinds.split(",") if k]:
        if kind not in kinds_seen:
            fail("no code-flow step of kind %r (seen: %r)" % (kind, sorted(kinds_seen)))
    if ARGS.fingerprints:
        with open(ARGS.fingerprints, "w", encoding="utf-8") as f:
            f.write("\n".join(prints) + "\n")
    print("check_sarif: %s: %d results OK" % (ARGS.file, len(results)))


main()
