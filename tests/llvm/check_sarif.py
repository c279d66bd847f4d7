#!/usr/bin/env python3
"""Checks that a file is SARIF 2.1.0 as `weir analyze --sarif` writes it:
valid JSON, version, tool driver with rules, results with ruleId, message and
locations (region from debug info), and for taint a related source location.
usage: check_sarif.py FILE RULE MIN_RESULTS [RELATED]"""
import json
import sys


def fail(what):
    sys.exit("check_sarif: %s: %s" % (sys.argv[1], what))


def main():
    path, rule, min_results = sys.argv[1], sys.argv[2], int(sys.argv[3])
    want_related = len(sys.argv) > 4 and sys.argv[4] == "related"
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("version") != "2.1.0":
        fail("version is %r, expected '2.1.0'" % doc.get("version"))
    if "sarif-2.1.0" not in doc.get("$schema", ""):
        fail("$schema does not name SARIF 2.1.0")
    runs = doc.get("runs")
    if not isinstance(runs, list) or len(runs) != 1:
        fail("expected exactly one run")
    driver = runs[0]["tool"]["driver"]
    if driver.get("name") != "weir" or not driver.get("version"):
        fail("tool.driver needs name 'weir' and a version")
    rules = driver.get("rules", [])
    if [r.get("id") for r in rules] != [rule]:
        fail("rules are %r, expected [%r]" % ([r.get("id") for r in rules], rule))
    for key in ("shortDescription", "defaultConfiguration"):
        if key not in rules[0]:
            fail("rule lacks %s" % key)
    results = runs[0].get("results")
    if not isinstance(results, list) or len(results) < min_results:
        fail("expected at least %d results, found %r" % (min_results, results))
    for r in results:
        if r.get("ruleId") != rule or r.get("ruleIndex") != 0 or r.get("level") != "warning":
            fail("result with ruleId/ruleIndex/level %r/%r/%r" % (r.get("ruleId"), r.get("ruleIndex"), r.get("level")))
        if not r.get("message", {}).get("text"):
            fail("result without message text")
        loc = r["locations"][0]
        phys = loc["physicalLocation"]
        if not phys["artifactLocation"]["uri"].endswith(".c"):
            fail("location uri %r is not the C file" % phys["artifactLocation"]["uri"])
        if phys["region"]["startLine"] < 1 or phys["region"]["startColumn"] < 1:
            fail("region without line/column")
        if loc["logicalLocations"][0]["kind"] != "function":
            fail("logical location is not a function")
        if want_related:
            related = r.get("relatedLocations", [])
            if not related or related[0]["physicalLocation"]["region"]["startLine"] < 1:
                fail("taint result without a related source location")
            if not related[0]["message"]["text"].startswith("source: "):
                fail("related location message %r" % related[0]["message"]["text"])
    print("check_sarif: %s: %d results OK" % (path, len(results)))


main()
