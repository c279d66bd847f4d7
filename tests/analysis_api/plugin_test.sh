#!/bin/sh
# Analysis plugins through the command (include/weir/analysis.h): the template
# (secret-log) against the markers of programs/*.c at -O0 and -O2 on the
# engine, SARIF with the plugin's rule and a code flow, lookup by id on
# WEIR_ANALYSIS_PATH, --config sources, --fail-on-findings, and the refusals
# (another ABI, no entry symbol, an id mismatch, a built-in's id, a misused
# fact, a typo), each exit 2 with a Fix.
# usage: plugin_test.sh WEIR CLANG14 PYTHON3 HERE WORK TEMPLATE BAD_ABI NO_ENTRY OTHER_ID BUILTIN_ID MISUSE CTOR
set -eu
weir=$1 clang=$2 python=$3 here=$4 work=$5 template=$6
bad_abi=$7 no_entry=$8 other_id=$9
shift 9
builtin_id=$1 misuse=$2 ctor=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "plugin_test: FAIL: $*" >&2; exit 1; }
run_rc() { set +e; "$@"; rc=$?; set -e; }
# expect_refusal NAME TEXT CMD...: exit 2, TEXT and a Fix: on stderr
expect_refusal() {
  name=$1 text=$2; shift 2
  run_rc "$@" > "$work/$name.out" 2> "$work/$name.err"
  cat "$work/$name.err"
  test $rc = 2 || fail "$name: exited $rc, expected 2"
  grep -q -- "$text" "$work/$name.err" || fail "$name: '$text' not in the message"
  grep -q "Fix:" "$work/$name.err" || fail "$name: no Fix: in the message"
  test ! -s "$work/$name.out" || fail "$name: printed findings"
}

# ---- the template against the markers ----------------------------------------
"$python" "$here/check_markers.py" "$weir" "$clang" "plugin:$template" "$work/markers" "$here"/programs/*.c \
  || fail "secret-log's findings differ from the markers"
# The checker itself fails on a marker the analysis does not meet.
sed 's|puts("no secret here"); /\* EXPECT-NOT|puts("no secret here"); /* EXPECT|' "$here/programs/secret_basic.c" \
  > "$work/wrong_marker.c"
run_rc "$python" "$here/check_markers.py" "$weir" "$clang" "plugin:$template" "$work/wrong" "$work/wrong_marker.c"
test $rc = 1 || fail "check_markers.py accepted a wrong marker (exit $rc)"

# ---- SARIF, by id on WEIR_ANALYSIS_PATH, --config, --fail-on-findings --------
"$clang" -g -O0 -w -emit-llvm -c "$here/programs/secret_basic.c" -o "$work/basic.bc"
dir=$(dirname "$template")
WEIR_ANALYSIS_PATH="$dir" "$weir" analyze secret-log "$work/basic.bc" --sarif "$work/basic.sarif" --quiet \
  > "$work/byid.out" || fail "weir analyze secret-log (by id on WEIR_ANALYSIS_PATH) exited $?"
test "$(grep -c '\[secret-to-output\]$' "$work/byid.out")" = 3 || fail "by id: not 3 findings: $(cat "$work/byid.out")"
"$python" - "$work/basic.sarif" <<'PY' || fail "the plugin's SARIF is not as expected"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = run["tool"]["driver"]["rules"]
assert [r["id"] for r in rules] == ["secret-to-output"], rules
assert "helpUri" not in rules[0], rules[0]  # weir's documentation has no page for a plugin's rule
[ext] = run["tool"]["extensions"]
assert (ext["name"], ext["version"]) == ("secret-log", "1.0"), ext
assert "getpass" in ext["shortDescription"]["text"], ext
assert "external/cwe/cwe-532" in rules[0]["properties"]["tags"], rules[0]
assert run["taxonomies"][0]["taxa"][0]["id"] == "532", run["taxonomies"]
results = run["results"]
assert len(results) == 3 and all(r["ruleId"] == "secret-to-output" for r in results), results
steps = results[0]["codeFlows"][0]["threadFlows"][0]["locations"]
assert steps[0]["location"]["message"]["text"] == "secret from 'getpass'", steps[0]
assert len(steps) >= 2, steps
PY
WEIR_ANALYSIS_PATH="$dir" "$weir" analyze --analysis secret-log "$work/basic.bc" --quiet --backend cpu \
  > "$work/option.out" || fail "--analysis secret-log exited $?"
cmp -s "$work/byid.out" "$work/option.out" || fail "--analysis ID and the first argument differ"
cat > "$work/token.c" <<'C'
#include <stdio.h>
const char *read_token(void);
int main(void) { puts(read_token()); return 0; }
C
"$clang" -g -O0 -w -emit-llvm -c "$work/token.c" -o "$work/token.bc"
printf 'source read_token ret\n' > "$work/token.cfg"
"$weir" analyze --analysis "plugin:$template" "$work/token.bc" --quiet > "$work/token0.out"
test ! -s "$work/token0.out" || fail "read_token is a source without --config: $(cat "$work/token0.out")"
run_rc "$weir" analyze --analysis "plugin:$template" "$work/token.bc" --config "$work/token.cfg" --quiet \
  --fail-on-findings > "$work/token.out"
test $rc = 3 || fail "--config source with --fail-on-findings exited $rc, expected 3"
grep -q "source: 'read_token'" "$work/token.out" || fail "the configured source is not named: $(cat "$work/token.out")"

# ---- `weir: ignore[ID]` names a plugin's analysis as ignore[uninit] does ----
cat > "$work/ignore.c" <<'C'
#include <stdio.h>
#include <unistd.h>
int main(void) {
  char *p = getpass("pw: ");
  puts(p); /* weir: ignore[secret-log] */
  (void)0;
  puts(p); /* weir: ignore[uninit] */
  return 0;
}
C
"$clang" -g -O0 -w -emit-llvm -c "$work/ignore.c" -o "$work/ignore.bc"
"$weir" analyze --analysis "plugin:$template" "$work/ignore.bc" --quiet > "$work/ignore.out"
test "$(grep -c 'secret-to-output' "$work/ignore.out")" = 1 && grep -q 'ignore.c:7:' "$work/ignore.out" \
  || fail "ignore[secret-log] does not suppress the plugin's finding at line 5: $(cat "$work/ignore.out")"

# ---- SARIF is UTF-8 whatever the input: a source file named in Latin-1 -------
mkdir -p "$work/latin1"
printf '#include <stdlib.h>\nint main(void) { char *p = malloc(4); free(p); return p[0]; }\n' \
  > "$work/latin1/caf$(printf '\351').c"
(cd "$work/latin1" && "$clang" -g -O0 -w -emit-llvm -c caf*.c -o latin1.bc)
"$weir" analyze uaf "$work/latin1/latin1.bc" --sarif "$work/latin1.sarif" --quiet > /dev/null \
  || fail "uaf on a Latin-1 file name exited $?"
"$python" - "$work/latin1.sarif" <<'PY' || fail "the SARIF of a Latin-1 file name is not UTF-8 JSON"
import json, sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # strict: raises on any invalid byte
assert "caf\ufffd.c" in json.loads(text)["runs"][0]["results"][0]["message"]["text"]
PY

# ---- refusals ------------------------------------------------------------------
expect_refusal abi "analysis ABI version 999, this weir-analyze has" \
  "$weir" analyze --analysis "plugin:$bad_abi" "$work/basic.bc"
expect_refusal entry "does not export weir_analysis_register()" \
  "$weir" analyze --analysis "plugin:$no_entry" "$work/basic.bc"
mkdir -p "$work/path" && cp "$other_id" "$work/path/libwanted.so"
expect_refusal mismatch "is named for 'wanted' but declares the id 'other-id'" \
  env WEIR_ANALYSIS_PATH="$work/path" "$weir" analyze --analysis wanted "$work/basic.bc"
expect_refusal builtin "its id 'taint' is a built-in analysis' name" \
  "$weir" analyze --analysis "plugin:$builtin_id" "$work/basic.bc"
expect_refusal misuse "weir_flow_gen: fact 123456789, but the analysis has" \
  "$weir" analyze --analysis "plugin:$misuse" "$work/basic.bc"
expect_refusal missing "does not exist" "$weir" analyze --analysis "plugin:$work/nope.so" "$work/basic.bc"
expect_refusal typo "unknown analysis 'secret-lgo' (known: taint, uninit, uaf, secret-log, other-id" \
  env WEIR_ANALYSIS_PATH="$dir:$work/path" "$weir" analyze --analysis secret-lgo "$work/basic.bc"
expect_refusal typo-first "'secret-lgo' is neither an analysis (taint, uninit, uaf, typestate, const, secret-log) nor" \
  env WEIR_ANALYSIS_PATH="$dir" "$weir" analyze secret-lgo "$work/basic.bc"
expect_refusal twice "two analyses: --analysis and the first argument 'taint'" \
  "$weir" analyze taint --analysis "plugin:$template" "$work/basic.bc"
# The positional id is looked up as --analysis ID, with the same refusals.
expect_refusal mismatch-first "is named for 'wanted' but declares the id 'other-id'" \
  env WEIR_ANALYSIS_PATH="$work/path" "$weir" analyze wanted "$work/basic.bc"
expect_refusal unnamed "analysis 'other-id' is declared by '$work/path/libwanted.so', which is not named for it" \
  env WEIR_ANALYSIS_PATH="$work/path" "$weir" analyze --analysis other-id "$work/basic.bc"
# Lookup by id opens only the library named for it: no other's constructor runs.
mkdir -p "$work/path2" "$work/path3"
cp "$ctor" "$work/path2/libaaa.so" && cp "$template" "$work/path2/libsecret-log.so"
WEIR_ANALYSIS_PATH="$work/path2" "$weir" analyze --analysis secret-log "$work/basic.bc" --quiet \
  > "$work/ctor.out" 2> "$work/ctor.err" || fail "secret-log next to another library exited $?"
cmp -s "$work/byid.out" "$work/ctor.out" || fail "secret-log next to another library: other findings"
! grep -q "constructor ran" "$work/ctor.err" || fail "looking up secret-log ran another library's constructor"
WEIR_ANALYSIS_PATH="$work/path2" "$weir" analyze secret-log "$work/basic.bc" --quiet > "$work/ctor.out" \
  2> "$work/ctor.err" || fail "secret-log (first argument) next to another library exited $?"
! grep -q "constructor ran" "$work/ctor.err" || fail "the first argument ran another library's constructor"
# Two libraries named for one id: neither is picked silently.
cp "$template" "$work/path3/libweir_secret-log.so"
expect_refusal duplicate "2 libraries on WEIR_ANALYSIS_PATH are named for it, '$work/path2/libsecret-log.so' and '$work/path3/libweir_secret-log.so'" \
  env WEIR_ANALYSIS_PATH="$work/path2:$work/path3" "$weir" analyze --analysis secret-log "$work/basic.bc"
# plugin:NAME without a '/' is the file in the current directory, not one on
# the library path of the same name.
mkdir -p "$work/cwd" && cp "$template" "$work/cwd/libm.so.6"
(cd "$work/cwd" && "$weir" analyze --analysis plugin:libm.so.6 "$work/basic.bc" --quiet > "$work/cwd.out") \
  || fail "plugin:libm.so.6 in the current directory exited $?"
cmp -s "$work/byid.out" "$work/cwd.out" || fail "plugin:libm.so.6: other findings than secret-log's"
# A module before --analysis is a module.
"$weir" analyze "$work/basic.bc" --analysis "plugin:$template" --quiet > "$work/order.out" \
  || fail "a module before --analysis exited $?"
cmp -s "$work/byid.out" "$work/order.out" || fail "a module before --analysis: other findings"
echo "plugin_test: ok"
