#!/usr/bin/env python3
"""Checks a `weir bench --json` report against bench/dispatch/report.schema.json
with a small validator for the subset of JSON Schema that file uses (type,
required, properties, items, minItems, enum), so no package is needed.

usage: check_bench_json.py SCHEMA REPORT [--min-records N] [--verified]
  --verified  every dispatch record has "verified": true, or is the reference
"""
import json
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def type_ok(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def check(value, schema, path, errors):
    types = schema.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]
        if not any(type_ok(value, t) for t in types):
            errors.append(f"{path}: {value!r:.60} is not of type {types}")
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{path}: missing key '{key}'")
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                check(value[key], sub, f"{path}.{key}", errors)
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                check(item, schema["items"], f"{path}[{i}]", errors)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(args[0]))
    report = json.load(open(args[1]))
    errors = []
    check(report, schema, "$", errors)
    records = report.get("records", [])
    if "--min-records" in args:
        want = int(args[args.index("--min-records") + 1])
        if len(records) < want:
            errors.append(f"$.records: {len(records)} records, expected at least {want}")
    for i, r in enumerate(records):
        samples = r.get("samples", {}).get("wall_ns")
        if samples is not None and len(samples) != r.get("runs"):
            errors.append(f"$.records[{i}]: {len(samples)} wall samples for {r.get('runs')} runs")
        if samples and not min(samples) == r["wall_ns"]["min"]:
            errors.append(f"$.records[{i}]: min of the samples is not wall_ns.min")
        if "--verified" in args and r.get("item") == "dispatch":
            ref = r.get("spec") == report.get("verify_reference")
            if r.get("verified") is not True and not ref:
                errors.append(f"$.records[{i}] ({r.get('spec')} {r.get('scenario')}): not verified")
    for e in errors:
        print("FAIL", e)
    if not errors:
        print(f"OK: {len(records)} records match the schema")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
