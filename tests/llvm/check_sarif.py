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

       check_sarif.py --lint FILE... [--verbose]
  the SARIF multitool's validation rules and GitHub code scanning's
  requirements (see lint_file below): one line "RULE: FILE:/json/pointer: what"
  per violation, exit 1 when there is any; --verbose also lists the rules
  deliberately not applied, with the reason (NOT_APPLIED).
"""
import argparse
import json
import re
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


# ---- --lint: the SARIF multitool's validation rules and GitHub code scanning's
# requirements, applied from the file alone (no schema download, no network).
# The rule ids and what they check follow microsoft/sarif-sdk
# (src/Sarif.Multitool.Library/Rules, `sarif-multitool validate`); GH* are the
# multitool's GitHub ingestion rules (GH1001..GH1007, GH2012), GHCS the rest of
# GitHub's documented SARIF support (docs.github.com, "SARIF support for code
# scanning": partialFingerprints, linked related locations, semanticVersion);
# JSON is a file that does not parse, SCHEMA the part of
# the SARIF 2.1.0 JSON schema that weir's output can get wrong. Every rule
# below is applied, whatever its level in the multitool (error, warning or
# note), except these, deliberately:
NOT_APPLIED = {
    "SARIF2002": "ProvideMessageArguments (note): results carry message.text, not message.id and "
                 "arguments: GitHub code scanning requires message.text and shows only it, and weir's "
                 "messages are composed per finding (C names, sources), so a template would not shorten them",
    "SARIF2003": "ProvideVersionControlProvenance (note): weir reads LLVM modules and does not know the "
                 "repository or commit they were built from; a GitHub upload names the commit itself",
    "SARIF2006": "UrisShouldBeReachable: needs the network, which CI does not have (and informationUri is "
                 "the WEIR_SARIF_INFORMATION_URI placeholder under .invalid until the project has a public URL)",
    "SARIF2009": "ConsiderConventionalIdentifierValues (note): rule ids such as 'weir-uninit' are not 'AB1234': "
                 "ids are the identity of GitHub alerts and of --baseline findings, renaming them would reopen "
                 "every alert",
    "SARIF2010": "ProvideCodeSnippets (note): weir writes locations from debug info without reading the "
                 "sources; GitHub shows the code from the repository; `sarif-multitool rewrite --insert "
                 "RegionSnippets` adds snippets afterwards for viewers without the sources",
    "SARIF2011": "ProvideContextRegion (note): as SARIF2010 (`--insert ContextRegionSnippets`)",
    "SARIF2013": "ProvideEmbeddedFileContent (note): embedding every analysed source would bloat the file "
                 "(GitHub rejects uploads over 10 MB gzipped) and GitHub reads the repository anyway",
    "SARIF2016 (outside the root)": "FileUrisShouldBeRelative (note) for files outside --source-root: they "
                 "are absolute file:// URIs on purpose (system headers, other trees): GitHub turns absolute "
                 "URIs under the checkout into repository paths and leaves the others; files under the root "
                 "must be relative, and that is checked",
}

LEVELS = ("none", "note", "warning", "error")
URI_KEYS = {"uri", "helpUri", "informationUri", "downloadUri", "repositoryUri", "$schema"}
ABSOLUTE_URI_KEYS = {"helpUri", "informationUri", "downloadUri", "repositoryUri", "$schema"}
URI_CHARS = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
PASCAL = re.compile(r"^([A-Z][a-z0-9]+)*$")
PLACEHOLDER = re.compile(r"\{([0-9]+)\}")
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")


class Lint:
    def __init__(self, name):
        self.name = name
        self.found = []

    def __call__(self, rule, where, what):
        self.found.append("%s: %s:%s: %s" % (rule, self.name, where or "/", what))


def walk(node, where=""):
    """Every (pointer, key, value) below node, depth first."""
    if isinstance(node, dict):
        for k, v in node.items():
            p = "%s/%s" % (where, k.replace("~", "~0").replace("/", "~1"))
            yield p, k, v
            yield from walk(v, p)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            p = "%s/%d" % (where, i)
            yield p, i, v
            yield from walk(v, p)


def lint_uris(doc, lint):
    for where, key, value in walk(doc):
        if key not in URI_KEYS or not isinstance(value, str):
            continue
        if not URI_CHARS.match(value) or re.search(r"%(?![0-9A-Fa-f]{2})", value):
            lint("SARIF1002", where, "'%s' is not a valid URI reference (RFC 3986): encode the characters "
                 "outside the URI set." % value)
        if value.lower().startswith("file:") and ".." in urlparse(value).path.split("/"):
            lint("SARIF1002", where, "the file URI '%s' has a '..' segment." % value)
        if key in ABSOLUTE_URI_KEYS and not SCHEME.match(value):
            lint("SARIF1005", where, "'%s' must be an absolute URI." % value)


def lint_artifact_location(art, where, run, lint):
    uri = art.get("uri")
    if uri is None:
        return
    if "uriBaseId" in art:
        if SCHEME.match(uri):
            lint("SARIF1004", where, "uriBaseId '%s' with the absolute URI '%s'." % (art["uriBaseId"], uri))
        if art["uriBaseId"] not in run.get("originalUriBaseIds", {}):
            lint("SCHEMA", where, "uriBaseId '%s' is not in run.originalUriBaseIds." % art["uriBaseId"])
    if not SCHEME.match(uri) and uri.startswith("/"):
        lint("SARIF1004", where + "/uri", "the relative reference '%s' begins with a slash." % uri)
    if SCHEME.match(uri) and not uri.lower().startswith("file:"):
        lint("GH1005", where + "/uri", "'%s': GitHub takes relative URIs or file: URIs only." % uri)
    index = art.get("index", -1)
    if index >= 0 and index >= len(run.get("artifacts", [])):
        lint("SARIF1009", where + "/index", "index %d but run.artifacts has %d elements." %
             (index, len(run.get("artifacts", []))))


def lint_region(region, where, lint):
    if not any(k in region for k in ("startLine", "charOffset", "byteOffset")):
        lint("SARIF1007", where, "a region without startLine, charOffset or byteOffset.")
        return
    start, end = region.get("startLine", 1), region.get("endLine", region.get("startLine", 1))
    if end < start:
        lint("SARIF1007", where, "endLine %d precedes startLine %d." % (end, start))
    if end == start and region.get("endColumn", 1 << 30) < region.get("startColumn", 1):
        lint("SARIF1007", where, "endColumn %d precedes startColumn %d." % (region["endColumn"], region["startColumn"]))
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        if key in region and (not isinstance(region[key], int) or region[key] < 1):
            lint("SCHEMA", where + "/" + key, "%s must be an integer >= 1, not %r." % (key, region[key]))


def region_contains(outer, inner):
    o = (outer.get("startLine", 0), outer.get("endLine", outer.get("startLine", 0)))
    i = (inner.get("startLine", 0), inner.get("endLine", inner.get("startLine", 0)))
    return o[0] <= i[0] and i[1] <= o[1] and o != i


def lint_location(loc, where, run, root, lint, primary=False):
    if loc.get("id", -1) < -1:
        lint("SCHEMA", where + "/id", "location.id %r below -1." % loc.get("id"))
    phys = loc.get("physicalLocation")
    if not phys:
        if primary:
            lint("GH1001", where, "a result location without physicalLocation: GitHub shows no alert for it.")
        return
    art = phys.get("artifactLocation")
    if not art or not art.get("uri"):
        lint("GH1001", where + "/physicalLocation", "no artifactLocation.uri.")
    else:
        lint_artifact_location(art, where + "/physicalLocation/artifactLocation", run, lint)
        uri = art["uri"]
        if primary and uri.lower().startswith("file:") and root and unquote(urlparse(uri).path).startswith(root):
            lint("SARIF2016", where + "/physicalLocation/artifactLocation/uri",
                 "'%s' lies under %%SRCROOT%% but is absolute: make it relative with uriBaseId." % uri)
    region, context = phys.get("region"), phys.get("contextRegion")
    if region:
        lint_region(region, where + "/physicalLocation/region", lint)
    elif primary:
        lint("GH1003", where + "/physicalLocation", "no region: GitHub needs region.startLine to place the alert.")
    if context:
        if not region:
            lint("SARIF1008", where + "/physicalLocation", "contextRegion without region.")
        elif not region_contains(context, region):
            lint("SARIF1008", where + "/physicalLocation", "contextRegion is not a proper superset of region.")


def lint_message(msg, where, rules, rule_id, lint, sentence=False):
    if not isinstance(msg, dict) or not (msg.get("text") or msg.get("id")):
        lint("SCHEMA", where, "a message needs text or id.")
        return
    if "id" in msg:
        rule = next((r for r in rules if r.get("id") == rule_id), {})
        template = rule.get("messageStrings", {}).get(msg["id"], {}).get("text")
        if template is None:
            lint("SARIF1012", where, "message id '%s' is not in the messageStrings of rule '%s'." % (msg["id"], rule_id))
        else:
            need = max([int(n) + 1 for n in PLACEHOLDER.findall(template)] or [0])
            if len(msg.get("arguments", [])) < need:
                lint("SARIF1012", where, "message id '%s' needs %d arguments, has %d." %
                     (msg["id"], need, len(msg.get("arguments", []))))
    if "text" not in msg:
        lint("GH1007", where, "no message.text: GitHub shows only the text (give text with the id).")
    elif sentence and not msg["text"].rstrip().endswith("."):
        lint("SARIF2001", where + "/text", "'%s' does not end with a period." % msg["text"])


def lint_rule(rule, where, taxa_by_component, lint):
    rid = rule.get("id")
    if not rid:
        lint("SCHEMA", where, "a reportingDescriptor without id.")
        return
    if rule.get("name") == rid:
        lint("SARIF1001", where, "rule '%s' has a name equal to its id." % rid)
    name = rule.get("name")
    if not name:
        lint("SARIF2012", where, "rule '%s' has no friendly name." % rid)
    elif not PASCAL.match(name):
        lint("SARIF2012", where + "/name", "'%s' is not a Pascal identifier." % name)
    if not rule.get("helpUri"):
        lint("SARIF2012", where, "rule '%s' has no helpUri." % rid)
    if len(name or "") > 255:
        lint("GH2012", where + "/name", "GitHub takes names of up to 255 characters.")
    for key in ("shortDescription", "fullDescription"):
        text = rule.get(key, {}).get("text", "")
        if not text:
            lint("GH2012", where, "rule '%s' has no %s.text, which GitHub requires and shows." % (rid, key))
        elif len(text) > 1024:
            lint("GH2012", where + "/" + key, "%d characters: GitHub takes up to 1024." % len(text))
    full = rule.get("fullDescription", {}).get("text", "")
    if full and not full.endswith("."):
        lint("SARIF2001", where + "/fullDescription/text", "the full description does not end with a period.")
    help_ = rule.get("help", {})
    if not help_.get("text"):
        lint("GH2012", where, "rule '%s' has no help.text, which GitHub requires." % rid)
    elif not help_["text"].endswith("."):
        lint("SARIF2001", where + "/help/text", "the help text does not end with a period.")
    if not help_.get("markdown"):
        lint("GH2012", where, "rule '%s' has no help.markdown (GitHub shows it instead of help.text)." % rid)
    level = rule.get("defaultConfiguration", {}).get("level")
    if level not in ("note", "warning", "error"):
        lint("GH2012", where, "defaultConfiguration.level %r: GitHub takes note, warning or error." % level)
    for key, message in sorted(rule.get("messageStrings", {}).items()):
        text = message.get("text", "")
        p = "%s/messageStrings/%s/text" % (where, key)
        if text and not text.endswith("."):
            lint("SARIF2001", p, "message '%s' of rule '%s' does not end with a period." % (key, rid))
        if text and not PLACEHOLDER.search(text):
            lint("SARIF2014", p, "message '%s' of rule '%s' has no dynamic content." % (key, rid))
        if re.search(r"(^|[^'])\{[0-9]+\}", text):
            lint("SARIF2015", p, "message '%s' of rule '%s' has dynamic content out of single quotes." % (key, rid))
    props = rule.get("properties", {})
    tags = props.get("tags", [])
    if len(tags) != len(set(tags)) or len(tags) > 20:
        lint("GH1004", where + "/properties/tags", "tags must be unique and at most 20 (GitHub shows 10).")
    if props.get("precision") not in ("very-high", "high", "medium", "low"):
        lint("GH2012", where + "/properties", "precision %r: GitHub orders alerts by very-high, high, medium, low."
             % props.get("precision"))
    if props.get("problem.severity") not in (None, "error", "warning", "recommendation"):
        lint("GH2012", where + "/properties", "problem.severity %r: error, warning or recommendation."
             % props.get("problem.severity"))
    severity = props.get("security-severity")
    if severity is not None:
        try:
            ok = isinstance(severity, str) and 0.0 < float(severity) <= 10.0
        except ValueError:
            ok = False
        if not ok:
            lint("GH2012", where + "/properties/security-severity",
                 "%r: GitHub takes a string with a score above 0.0 up to 10.0." % severity)
        if "security" not in tags:
            lint("GH2012", where + "/properties/tags", "a security-severity without the tag 'security'.")
    cwe_tags = sorted(t[len("external/cwe/cwe-"):] for t in tags if t.startswith("external/cwe/cwe-"))
    bad = [t for t in cwe_tags if not t.isdigit()]
    if bad:
        lint("GH2012", where + "/properties/tags", "CWE tags must read external/cwe/cwe-N: %r." % bad)
    related = []
    for n, rel in enumerate(rule.get("relationships", [])):
        p = "%s/relationships/%d" % (where, n)
        target = rel.get("target", {})
        component = target.get("toolComponent", {})
        taxa = taxa_by_component.get(component.get("name"))
        if taxa is None:
            lint("SARIF1009", p + "/target/toolComponent", "toolComponent %r is not one of run.taxonomies." % component)
            continue
        index = component.get("index", -1)
        if index >= 0 and index != taxa[0]:
            lint("SARIF1009", p + "/target/toolComponent/index", "index %d, but '%s' is run.taxonomies[%d]." %
                 (index, component.get("name"), taxa[0]))
        ids = [t.get("id") for t in taxa[1]]
        if target.get("id") not in ids:
            lint("SARIF1009", p + "/target/id", "taxon '%s' is not in taxonomy '%s'." % (target.get("id"), component.get("name")))
        elif target.get("index", -1) >= 0 and ids[target["index"]:target["index"] + 1] != [target["id"]]:
            lint("SARIF1009", p + "/target/index", "index %d does not name taxon '%s'." % (target["index"], target["id"]))
        if not rel.get("kinds"):
            lint("SCHEMA", p, "a relationship without kinds.")
        if component.get("name") == "CWE":
            related.append(target.get("id"))
    if sorted(related) != cwe_tags:
        lint("GH2012", where, "the CWE tags %r differ from the CWE relationships %r." % (cwe_tags, sorted(related)))


def lint_result(result, where, run, rules, root, lint):
    rule = result.get("rule") or {}
    rid = result.get("ruleId") or rule.get("id")
    if not rid:
        lint("SARIF1010", where, "a result with neither ruleId nor rule.id.")
    elif "ruleId" in result and "id" in rule and rule["id"] != result["ruleId"]:
        lint("SARIF1010", where, "ruleId '%s' and rule.id '%s' differ." % (result["ruleId"], rule["id"]))
    if rule and "toolComponent" not in rule:
        lint("SARIF2004", where + "/rule", "result.rule for a driver rule: use ruleId and ruleIndex.")
    index = result.get("ruleIndex", rule.get("index", -1))
    if index >= len(rules):
        lint("SARIF1009", where + "/ruleIndex", "ruleIndex %d but tool.driver.rules has %d elements." % (index, len(rules)))
    elif index >= 0 and rules[index].get("id") != rid:
        lint("SARIF1009", where + "/ruleIndex", "ruleIndex %d names '%s', not '%s'." % (index, rules[index].get("id"), rid))
    elif rid and rid not in [r.get("id") for r in rules]:
        lint("GH2012", where, "rule '%s' is not in tool.driver.rules: GitHub shows no rule help for it." % rid)
    if result.get("level", "warning") not in LEVELS:
        lint("SCHEMA", where + "/level", "level %r." % result.get("level"))
    if not -1 <= result.get("rank", -1) <= 100:
        lint("SCHEMA", where + "/rank", "rank %r outside -1..100." % result.get("rank"))
    if result.get("baselineState", "new") not in ("new", "unchanged", "updated", "absent"):
        lint("SCHEMA", where + "/baselineState", "baselineState %r." % result.get("baselineState"))
    for n, s in enumerate(result.get("suppressions", [])):
        if s.get("kind") not in ("inSource", "external"):
            lint("SCHEMA", "%s/suppressions/%d" % (where, n), "suppression kind %r." % s.get("kind"))
    lint_message(result.get("message"), where + "/message", rules, rid, lint, sentence=True)
    locations = result.get("locations", [])
    if not locations:
        lint("GH1001", where, "a result without locations: GitHub shows no alert for it.")
    if len(locations) > 10:
        lint("GH1004", where + "/locations", "%d locations: GitHub takes up to 10." % len(locations))
    for n, loc in enumerate(locations):
        lint_location(loc, "%s/locations/%d" % (where, n), run, root, lint, primary=True)
    target = result.get("analysisTarget")
    if target and any(l.get("physicalLocation", {}).get("artifactLocation", {}).get("uri") == target.get("uri")
                      for l in locations):
        lint("SARIF2004", where + "/analysisTarget", "analysisTarget repeats the result location.")
    prints = result.get("partialFingerprints")
    if not prints or not all(isinstance(v, str) and v for v in prints.values()):
        lint("GHCS", where, "no partialFingerprints: GitHub tracks alerts across commits by them.")
    ids = []
    for n, loc in enumerate(result.get("relatedLocations", [])):
        p = "%s/relatedLocations/%d" % (where, n)
        lint_location(loc, p, run, root, lint)
        if "message" in loc:
            lint_message(loc["message"], p + "/message", rules, rid, lint)
        ids.append(loc.get("id", -1))
    text = result.get("message", {}).get("text", "")
    for n, i in enumerate(ids):
        if i >= 0 and ids.count(i) > 1:
            lint("SCHEMA", "%s/relatedLocations/%d/id" % (where, n), "location id %d is not unique." % i)
        elif i >= 0 and not re.search(r"\]\(%d\)" % i, text):
            lint("GHCS", "%s/relatedLocations/%d" % (where, n),
                 "related location %d is not linked from the message ('[text](%d)'): GitHub shows only "
                 "related locations that the message links." % (i, i))
    for f, flow in enumerate(result.get("codeFlows", [])):
        fp = "%s/codeFlows/%d" % (where, f)
        if "message" in flow:
            lint_message(flow["message"], fp + "/message", rules, rid, lint)
        for t, thread in enumerate(flow.get("threadFlows", [])):
            order = 0
            steps = thread.get("locations", [])
            if not steps:
                lint("SCHEMA", "%s/threadFlows/%d" % (fp, t), "a thread flow without locations.")
            for s, step in enumerate(steps):
                sp = "%s/threadFlows/%d/locations/%d" % (fp, t, s)
                if "location" not in step:
                    lint("GH1002", sp, "a thread flow step without an inline location.")
                    continue
                lint_location(step["location"], sp + "/location", run, root, lint)
                if "message" in step["location"]:
                    lint_message(step["location"]["message"], sp + "/location/message", rules, rid, lint)
                if step.get("nestingLevel", 0) < 0 or step.get("executionOrder", -1) < -1:
                    lint("SCHEMA", sp, "nestingLevel below 0 or executionOrder below -1.")
                if step.get("executionOrder", order + 1) <= order:
                    lint("SCHEMA", sp, "executionOrder %r does not increase." % step.get("executionOrder"))
                order = step.get("executionOrder", order + 1)
                kinds = step.get("kinds", [])
                if len(kinds) != len(set(kinds)):
                    lint("SCHEMA", sp + "/kinds", "kinds must be unique.")


def lint_run(run, where, lint):
    driver = run.get("tool", {}).get("driver", {})
    dp = where + "/tool/driver"
    if not driver.get("name"):
        lint("SCHEMA", dp, "tool.driver needs a name.")
    elif len(driver["name"].split()) > 3:
        lint("SARIF2005", dp + "/name", "the tool name '%s' has more than three words." % driver["name"])
    if not driver.get("informationUri"):
        lint("SARIF2005", dp, "the tool '%s' does not provide 'informationUri'." % driver.get("name"))
    if not driver.get("version") and not driver.get("semanticVersion") and not driver.get("dottedQuadFileVersion"):
        lint("SARIF2005", dp, "the tool provides neither version nor semanticVersion.")
    if driver.get("version") and not re.match(r"^\d+", driver["version"]):
        lint("SARIF2005", dp + "/version", "version '%s' does not start with a number." % driver["version"])
    if driver.get("semanticVersion") and not SEMVER.match(driver["semanticVersion"]):
        lint("GHCS", dp + "/semanticVersion", "'%s' is not Semantic Versioning 2.0 (GitHub tracks tool "
             "changes by it)." % driver["semanticVersion"])
    rules = driver.get("rules", [])
    if not rules:
        lint("GH2012", dp, "no tool.driver.rules: GitHub shows rule help from them.")
    elif len(rules[0]) == 1 and "id" in rules[0]:
        lint("SARIF2004", dp + "/rules", "the rules hold nothing beyond their ids.")
    ids = [r.get("id") for r in rules]
    if len(ids) != len(set(ids)):
        lint("SCHEMA", dp + "/rules", "rule ids are not unique: %r." % ids)
    taxonomies = run.get("taxonomies", [])
    taxa_by_component = {t.get("name"): (n, t.get("taxa", [])) for n, t in enumerate(taxonomies)}
    for n, t in enumerate(taxonomies):
        tp = "%s/taxonomies/%d" % (where, n)
        if not t.get("name"):
            lint("SCHEMA", tp, "a taxonomy without name.")
        for k, taxon in enumerate(t.get("taxa", [])):
            if not taxon.get("id"):
                lint("SCHEMA", "%s/taxa/%d" % (tp, k), "a taxon without id.")
            elif not taxon.get("name"):
                lint("SARIF2012", "%s/taxa/%d" % (tp, k), "taxon '%s' has no friendly name." % taxon["id"])
            elif not PASCAL.match(taxon["name"]):
                lint("SARIF2012", "%s/taxa/%d/name" % (tp, k), "'%s' is not a Pascal identifier." % taxon["name"])
    for n, ref in enumerate(driver.get("supportedTaxonomies", [])):
        if ref.get("name") not in taxa_by_component or ref.get("index", taxa_by_component.get(ref.get("name"), (-1,))[0]) != taxa_by_component[ref["name"]][0]:
            lint("SARIF1009", "%s/supportedTaxonomies/%d" % (dp, n), "%r is not one of run.taxonomies." % ref)
    if taxonomies and not driver.get("supportedTaxonomies"):
        lint("SARIF1009", dp, "run.taxonomies without tool.driver.supportedTaxonomies naming them.")
    for n, rule in enumerate(rules):
        lint_rule(rule, "%s/rules/%d" % (dp, n), taxa_by_component, lint)
    bases = run.get("originalUriBaseIds", {})
    for name, base in bases.items():
        bp = "%s/originalUriBaseIds/%s" % (where, name)
        uri = base.get("uri", "")
        if "uriBaseId" not in base and not SCHEME.match(uri):
            lint("SARIF1004", bp, "'%s' has no uriBaseId and its uri '%s' is not absolute." % (name, uri))
        if uri and not uri.endswith("/"):
            lint("SARIF1004", bp, "'%s' does not end with a slash." % uri)
        if ".." in uri.split("/"):
            lint("SARIF1004", bp, "'%s' has a '..' segment." % uri)
        if urlparse(uri).query or urlparse(uri).fragment:
            lint("SARIF1004", bp, "'%s' has a query or a fragment." % uri)
    root = unquote(urlparse(bases.get("%SRCROOT%", {}).get("uri", "")).path)
    artifacts = run.get("artifacts", [])
    if artifacts and len(artifacts[0]) == 1 and "location" in artifacts[0]:
        lint("SARIF2004", where + "/artifacts", "the artifacts hold nothing beyond their locations.")
    for n, inv in enumerate(run.get("invocations", [])):
        if inv.get("startTimeUtc") and inv.get("endTimeUtc") and inv["endTimeUtc"] < inv["startTimeUtc"]:
            lint("SARIF1006", "%s/invocations/%d" % (where, n), "endTimeUtc precedes startTimeUtc.")
    mapped = set()
    for n, vcs in enumerate(run.get("versionControlProvenance", [])):
        base = vcs.get("mappedTo", {}).get("uriBaseId")
        if not base:
            lint("SARIF2007", "%s/versionControlProvenance/%d" % (where, n), "no mappedTo.uriBaseId.")
        else:
            mapped.add(base)
            mapped.update(k for k, v in bases.items() if v.get("uriBaseId") == base)
    results = run.get("results")
    if not isinstance(results, list):
        lint("GH1001", where, "no results array (GitHub requires one, empty when nothing was found).")
        return
    if len(results) > 25000:
        lint("GH1004", where + "/results", "%d results: GitHub takes up to 25,000 a run." % len(results))
    for n, result in enumerate(results):
        rp = "%s/results/%d" % (where, n)
        lint_result(result, rp, run, rules, root, lint)
        for k, loc in enumerate(result.get("locations", []) if mapped else []):
            if loc.get("physicalLocation", {}).get("artifactLocation", {}).get("uriBaseId") not in mapped:
                lint("SARIF2007", "%s/locations/%d" % (rp, k), "not relative to a repository root %r." % sorted(mapped))


def lint_file(path):
    lint = Lint(path)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        lint("JSON", "", "not readable as JSON: %s." % e)
        return lint.found
    if not isinstance(doc, dict):
        lint("SCHEMA", "", "the log is not a JSON object.")
        return lint.found
    if doc.get("version") != "2.1.0":
        lint("SCHEMA", "/version", "version %r, expected '2.1.0'." % doc.get("version"))
    schema = doc.get("$schema")
    if not schema:
        lint("SARIF2008", "", "no '$schema' property.")
    elif not any(schema.endswith(s) for s in ("2.1.0", "2.1.0.json", "2.1.0-rtm.6", "2.1.0-rtm.6.json")):
        lint("SARIF1011", "/$schema", "'%s' is not the final SARIF 2.1.0 schema." % schema)
    lint_uris(doc, lint)
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs:
        lint("SCHEMA", "/runs", "no runs.")
        return lint.found
    if len(runs) > 20:
        lint("GH1004", "/runs", "%d runs: GitHub takes up to 20 a file." % len(runs))
    for n, run in enumerate(runs):
        lint_run(run, "/runs/%d" % n, lint)
    return lint.found


def lint_main(paths):
    found = []
    for path in paths:
        found += lint_file(path)
    for line in found:
        print(line)
    for rule, why in sorted(NOT_APPLIED.items()):
        if ARGS.verbose:
            print("check_sarif --lint: not applied: %s: %s" % (rule, why))
    print("check_sarif --lint: %d files, %d violations (%d multitool rules deliberately not applied: "
          "check_sarif.py NOT_APPLIED)" % (len(paths), len(found), len(NOT_APPLIED)))
    sys.exit(1 if found else 0)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("more", nargs="*", help="further files (--lint only)")
    parser.add_argument("--lint", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--rules", default="")
    parser.add_argument("--min-results", type=int, default=1)
    parser.add_argument("--related", action="store_true")
    parser.add_argument("--min-steps", type=int, default=0)
    parser.add_argument("--kinds", default="")
    parser.add_argument("--root")
    parser.add_argument("--uri-prefix")
    parser.add_argument("--fingerprints")
    ARGS = parser.parse_args()
    if ARGS.lint:
        lint_main([ARGS.file] + ARGS.more)
    if ARGS.more:
        parser.error("several files only with --lint")
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
