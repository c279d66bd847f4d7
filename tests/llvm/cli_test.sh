#!/bin/sh
# End-to-end test of `weir analyze`: findings on stdout (paths relative to the
# source root), SARIF 2.1.0 (rules, code flows, fingerprints; checked with
# check_sarif.py, and linted with its --lint: the SARIF multitool's rules and
# GitHub code scanning's), several modules, the three analyses, --emit-ifds, atomic
# outputs and the exit codes (0, 2 bad input, 3 --fail-on-findings).
# usage: cli_test.sh WEIR CLANG14 PYTHON3 TESTS_LLVM_DIR WORK_DIR
set -eu
weir=$1 clang=$2 python=$3 here=$4 work=$5
examples=$here/../../examples/analyze
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd -P)
here=$(cd "$here" && pwd -P)
fail() { echo "cli_test: FAIL: $*" >&2; exit 1; }
check_sarif() { "$python" "$here/check_sarif.py" "$@" || fail "SARIF check failed: $*"; }
# Runs the command, stores its exit code in $rc (set -e would stop at a non-zero one).
run_rc() { set +e; "$@"; rc=$?; set -e; }

"$clang" -g -O0 -emit-llvm -c "$here/programs/taint_helper.c" -o "$work/helper.bc"
"$clang" -g -O0 -emit-llvm -S "$here/programs/uninit_pointer.c" -o "$work/pointer.ll"

# ---- taint: text output relative to --source-root, SARIF, --emit-ifds --------
"$weir" analyze taint "$work/helper.bc" --source-root "$here" --sarif "$work/helper.sarif" \
  --emit-ifds "$work/helper.ifds" > "$work/helper.out" || fail "weir analyze taint exited $?"
cat "$work/helper.out"
grep -q "^programs/taint_helper.c:16:10: warning: tainted data reaches argument 1 of 'system' (source: 'fgets' at programs/taint_helper.c:14:8) \[weir-taint-command-injection\]$" \
  "$work/helper.out" || fail "taint finding line not as expected (relative to the source root)"
test "$(wc -l < "$work/helper.out")" = 1 || fail "the finding is printed more than once"
check_sarif "$work/helper.sarif" --rules weir-taint-command-injection --related --min-steps 2 \
  --root "$here" --uri-prefix programs/
# A comment block (the analysis, the fact legend) comes before the writer's
# text: the magic line is the first line that is not a comment; the trailer ends it.
grep -v "^#" "$work/helper.ifds" | head -1 | grep -q "^weir-ifds 1$" \
  || fail "emitted problem lacks the magic line"
grep -q "^# fact 0 zero$" "$work/helper.ifds" || fail "emitted problem lacks the fact legend"
grep -q "^# fact 1 taint " "$work/helper.ifds" || fail "the legend does not name fact 1"
tail -1 "$work/helper.ifds" | grep -q "^end [0-9]* [0-9]* [0-9]* [0-9]*$" \
  || fail "emitted problem does not end with the end trailer"
"$weir" solve "$work/helper.ifds" -o "$work/helper.result" --solver reference \
  || fail "weir solve refused the emitted problem"
# The default root is the current directory; outside the root paths are absolute.
(cd "$here" && "$weir" analyze taint "$work/helper.bc" --quiet) | grep -q "^programs/taint_helper.c:16:10:" \
  || fail "paths are not relative to the current directory by default"
"$weir" analyze taint "$work/helper.bc" --source-root="$work" --quiet --sarif "$work/outside.sarif" \
  | grep -q "^$here/programs/taint_helper.c:16:10:" || fail "a file outside the root is not absolute"
grep -q "\"uri\": \"file://$here/programs/taint_helper.c\"" "$work/outside.sarif" \
  || fail "a file outside the root is not an absolute file:// URI in SARIF"

# ---- a code flow through a helper: source, call, return, sink -----------------
"$clang" -g -O0 -emit-llvm -c "$examples/command-injection.c" -o "$work/example.bc"
"$weir" analyze taint "$work/example.bc" --sarif "$work/example.sarif" --quiet > "$work/example.out" \
  || fail "the bundled example exited $?"
cat "$work/example.out"
check_sarif "$work/example.sarif" --rules weir-taint-command-injection --related --min-steps 3 --kinds taint,call,danger

# ---- several modules linked in process --------------------------------------
cat > "$work/multi_main.c" <<'EOF'
#include <stdlib.h>
void run(const char *command);
int main(void) {
  run(getenv("COMMAND"));
  return 0;
}
EOF
cat > "$work/multi_run.c" <<'EOF'
#include <stdlib.h>
void run(const char *command) {
  system(command);
}
EOF
"$clang" -g -O0 -emit-llvm -c "$work/multi_main.c" -o "$work/multi_main.bc"
"$clang" -g -O0 -emit-llvm -S "$work/multi_run.c" -o "$work/multi_run.ll"
"$weir" analyze taint "$work/multi_main.bc" "$work/multi_run.ll" --source-root "$work" \
  --sarif "$work/multi.sarif" > "$work/multi.out" 2> "$work/multi.err" || fail "two modules exited $?"
cat "$work/multi.out" "$work/multi.err"
grep -q "^multi_run.c:3:3: warning: .*'system' (source: 'getenv' at multi_main.c:4:7) \[weir-taint-command-injection\]" \
  "$work/multi.out" || fail "no finding across the two modules"
check_sarif "$work/multi.sarif" --rules weir-taint-command-injection --related --min-steps 2 --kinds call --root "$work"

# ---- uaf: use after free and double free ------------------------------------
cat > "$work/uaf.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
static void release(char *block) {
  free(block);
}
int use_after_free(void) {
  char *p = malloc(16);
  if (!p) return 1;
  strcpy(p, "x");
  release(p);
  return p[0];
}
void double_free(void) {
  char *q = malloc(8);
  free(q);
  free(q);
}
int main(void) {
  double_free();
  return use_after_free();
}
EOF
"$clang" -g -O0 -emit-llvm -c "$work/uaf.c" -o "$work/uaf.bc"
"$weir" analyze uaf "$work/uaf.bc" --source-root "$work" --sarif "$work/uaf.sarif" > "$work/uaf.out" \
  || fail "weir analyze uaf exited $?"
cat "$work/uaf.out"
grep -q "^uaf.c:11:10: .*\[weir-use-after-free\]" "$work/uaf.out" || fail "no use after free at uaf.c:11"
grep -q "^uaf.c:16:3: .*\[weir-double-free\]" "$work/uaf.out" || fail "no double free at uaf.c:16"
check_sarif "$work/uaf.sarif" --rules weir-use-after-free,weir-double-free --min-results 2 --related --min-steps 2

# ---- uninit: a textual .ll, the engine gives the same findings ---------------
"$weir" analyze uninit "$work/pointer.ll" --sarif "$work/pointer.sarif" > "$work/pointer.out" \
  || fail "weir analyze uninit exited $?"
cat "$work/pointer.out"
test "$(grep -c "\[weir-uninit\]" "$work/pointer.out")" -ge 1 || fail "expected uninit findings"
check_sarif "$work/pointer.sarif" --rules weir-uninit
"$weir" analyze uninit "$work/pointer.ll" --backend cpu > "$work/pointer.engine.out" 2> "$work/pointer.engine.err" \
  || fail "weir analyze --backend cpu exited $?"
grep -q "engine on cpu" "$work/pointer.engine.err" || fail "--backend without --solver did not run the engine"
cmp "$work/pointer.out" "$work/pointer.engine.out" || fail "engine findings differ from the reference"

# ---- fingerprints survive a blank line inserted above -------------------------
mkdir -p "$work/v1" "$work/v2"
cp "$here/programs/taint_helper.c" "$work/v1/prog.c"
{ echo; cat "$here/programs/taint_helper.c"; } > "$work/v2/prog.c"
for v in v1 v2; do
  (cd "$work/$v" && "$clang" -g -O0 -emit-llvm -c prog.c -o prog.bc)
  "$weir" analyze taint "$work/$v/prog.bc" --source-root "$work/$v" --sarif "$work/$v/out.sarif" --quiet \
    > "$work/$v/out.txt" || fail "fingerprint run $v exited $?"
  check_sarif "$work/$v/out.sarif" --fingerprints "$work/$v/prints.txt"
done
cmp -s "$work/v1/out.txt" "$work/v2/out.txt" && fail "the inserted line did not move the finding"
cmp "$work/v1/prints.txt" "$work/v2/prints.txt" || fail "fingerprints changed when a line was inserted above"

# ---- --fail-on-findings ------------------------------------------------------
run_rc "$weir" analyze taint "$work/helper.bc" --fail-on-findings --quiet
test $rc = 3 || fail "--fail-on-findings with a finding exited $rc, expected 3"
printf 'int main(void) { return 0; }\n' > "$work/clean.c"
"$clang" -g -O0 -emit-llvm -c "$work/clean.c" -o "$work/clean.bc"
run_rc "$weir" analyze taint "$work/clean.bc" --fail-on-findings --quiet
test $rc = 0 || fail "--fail-on-findings without findings exited $rc, expected 0"

# ---- atomic outputs: an earlier file survives a failing run ------------------
echo "earlier result" > "$work/keep.sarif"
printf 'this is not LLVM IR\n' > "$work/bad.ll"
run_rc "$weir" analyze taint "$work/bad.ll" --sarif "$work/keep.sarif" 2> "$work/bad.err"
test $rc = 2 || fail "an unreadable module exited $rc, expected 2"
grep -q "Fix:" "$work/bad.err" || fail "no Fix: hint for a bad module"
test "$(cat "$work/keep.sarif")" = "earlier result" || fail "a failing run replaced the earlier SARIF file"
ls -a "$work" | grep -q "keep.sarif.tmp" && fail "a temporary file was left behind"
# Output paths are checked before the analysis: a missing directory, the input itself.
run_rc "$weir" analyze taint "$work/helper.bc" --sarif "$work/no/such/dir/out.sarif" 2> "$work/dir.err"
test $rc = 2 || fail "a --sarif in a missing directory exited $rc, expected 2"
run_rc "$weir" analyze taint "$work/helper.bc" --emit-ifds "$work/helper.bc" 2> "$work/same.err"
test $rc = 2 || fail "--emit-ifds naming the input exited $rc, expected 2"
"$clang" -g -O0 -emit-llvm -c "$here/programs/taint_helper.c" -o "$work/helper2.bc"
cmp -s "$work/helper.bc" "$work/helper2.bc" || fail "--emit-ifds overwrote the input module"

# ---- triage: merged sources, weir: ignore, --baseline, --min-confidence -------
"$clang" -g -O0 -emit-llvm -c "$here/programs/triage.c" -o "$work/triage.bc"
"$weir" analyze uninit "$work/triage.bc" --source-root "$here" --sarif "$work/triage.sarif" \
  > "$work/triage.out" 2> "$work/triage.err" || fail "weir analyze uninit of triage.c exited $?"
cat "$work/triage.out" "$work/triage.err"
# Lines 9 and 16 are suppressed (their own line, the line above); line 22's
# comment names another analysis; the read at 29 has two sources and is one finding.
test "$(wc -l < "$work/triage.out")" = 2 || fail "triage.c: expected 2 findings printed"
grep -q "^programs/triage.c:22:3: warning: " "$work/triage.out" || fail "ignore[taint] suppressed an uninit finding"
grep -q "^programs/triage.c:29:10: warning: .* and 1 more source) \[weir-uninit\]$" "$work/triage.out" \
  || fail "the read with two sources is not one finding naming both"
grep -q "2 suppressed by 'weir: ignore' comments" "$work/triage.err" || fail "the summary does not count suppressions"
grep -q "by rule: weir-uninit 2" "$work/triage.err" || fail "no summary by rule"
grep -q "by file: programs/triage.c 2" "$work/triage.err" || fail "no summary by file"
"$python" - "$work/triage.sarif" <<'PY' || fail "triage.sarif: suppressions, sources or confidence wrong"
import json, sys
results = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert len(results) == 4, len(results)
suppressed = [r for r in results if r.get("suppressions")]
assert len(suppressed) == 2 and all(r["suppressions"][0]["kind"] == "inSource" for r in suppressed)
merged = [r for r in results if r["properties"]["sources"] == 2]
assert len(merged) == 1 and len(merged[0]["codeFlows"]) == 2, merged
for r in results:
    assert 0 <= r["properties"]["confidence"] <= 100 and r["properties"]["confidenceLevel"] in ("high", "medium", "low")
    assert "weirFindingHash/v2" in r["partialFingerprints"]
PY
# Against its own SARIF as the baseline (same source root: fingerprints hold
# relative paths) nothing is new; --fail-on-findings then exits 0.
"$weir" analyze uninit "$work/triage.bc" --source-root "$here" --baseline "$work/triage.sarif" --fail-on-findings \
  > "$work/base.out" 2> "$work/base.err" || fail "an unchanged run against its baseline exited $?"
test ! -s "$work/base.out" || fail "findings unchanged since the baseline were printed"
grep -q "2 unchanged since the baseline" "$work/base.err" || fail "the summary does not count unchanged findings"
# A baseline that is not weir's SARIF is refused with a hint.
printf '{"version": "2.1.0"}' > "$work/notsarif.sarif"
run_rc "$weir" analyze uninit "$work/triage.bc" --baseline "$work/notsarif.sarif" 2> "$work/baseline.err"
test $rc = 2 || fail "a baseline without runs exited $rc, expected 2"
run_rc "$weir" analyze uninit "$work/triage.bc" --baseline "$work/missing.sarif" 2> "$work/baseline2.err"
test $rc = 2 || fail "a missing baseline exited $rc, expected 2"
run_rc "$weir" analyze uninit "$work/triage.bc" --min-confidence bogus 2> "$work/conf.err"
test $rc = 2 || fail "--min-confidence bogus exited $rc, expected 2"
"$weir" analyze uninit "$work/triage.bc" --min-confidence 101 --quiet 2>/dev/null && fail "--min-confidence 101 accepted"
"$weir" analyze uninit "$work/triage.bc" --min-confidence 100 --quiet > "$work/conf100.out" \
  || fail "--min-confidence 100 exited $?"
test "$(wc -l < "$work/conf100.out")" -lt 2 || fail "--min-confidence 100 kept the two-source finding"

# ---- names in C words from debug info ------------------------------------------
"$clang" -g -O0 -emit-llvm -c "$here/programs/names.c" -o "$work/names0.bc"
"$clang" -g -O2 -emit-llvm -c "$here/programs/names.c" -o "$work/names2.bc"
"$weir" analyze uninit "$work/names0.bc" --source-root "$here" --quiet > "$work/names.out"
"$weir" analyze uaf "$work/names0.bc" --source-root "$here" --quiet >> "$work/names.out"
"$weir" analyze uaf "$work/names2.bc" --source-root "$here" --quiet > "$work/names2.out"
cat "$work/names.out" "$work/names2.out"
for expected in \
  "18:50: warning: 'p->next->len' may be used uninitialized (len of the block from malloc in make_node at names.c:13)" \
  "18:56: warning: 'p->inner.r\[\]' may be used uninitialized (local.inner.r\[\])" \
  "18:72: warning: 'p->arr\[\]' may be used uninitialized (local.arr\[\])" \
  "18:89: warning: 'p\[\].len' may be used uninitialized (local.len)" \
  "26:40: warning: 'ip\[\]' may be used uninitialized (the block from malloc in main at names.c:25)" \
  "28:21: warning: reads 'n->len', which may already have been freed (len of the block from malloc in make_node at names.c:13)" \
  "29:3: warning: 'free' releases 'n', which may already have been freed"; do
  grep -q "^programs/names.c:$expected" "$work/names.out" || fail "names.c at -O0: no finding reading \"$expected\""
done
# -O2 inlines make_node: the block is still named by the function its source is in.
grep -q "^programs/names.c:28:21: warning: reads 'n->len', which may already have been freed (len of the block from malloc in make_node at names.c:13)" \
  "$work/names2.out" || fail "names.c at -O2: the inlined allocation is not named by its function"
grep -q "^programs/names.c:29:3: warning: 'free' releases 'n', which may already have been freed (the block from malloc in make_node at names.c:13)" \
  "$work/names2.out" || fail "names.c at -O2: the pointer passed to free is not named as passed"

# ---- usage and bad input: exit 2, one prefix, --help --------------------------
run_rc "$weir" analyze taint "$work/missing.bc" 2> "$work/missing.err"
test $rc = 2 || fail "a missing module exited $rc, expected 2"
run_rc "$weir" analyze taint "$work/helper.bc" --config "$work/missing.cfg" 2> "$work/cfg.err"
test $rc = 2 || fail "a missing config exited $rc, expected 2"
# A NUL byte inside a library-table line is refused with its line and column
# (it used to hide the rest of the line silently).
printf 'sink system arg0\nsink pop\000en arg0\n' > "$work/nul.cfg"
run_rc "$weir" analyze taint "$work/helper.bc" --config "$work/nul.cfg" 2> "$work/nul.err"
test $rc = 2 || fail "a config with a NUL byte exited $rc, expected 2"
grep -q 'nul.cfg:2:9: error: a NUL byte' "$work/nul.err" || fail "NUL byte not reported at 2:9: $(cat "$work/nul.err")"
run_rc "$weir" analyze nullness "$work/helper.bc" 2> "$work/analysis.err"
test $rc = 2 || fail "an unknown analysis exited $rc, expected 2"
run_rc "$weir" analyze taint "$work/helper.bc" --no-such-option 2> "$work/option.err"
test $rc = 2 || fail "an unknown option exited $rc, expected 2"
for e in missing cfg analysis option dir same bad baseline baseline2 conf; do
  cat "$work/$e.err"
  grep -q "Fix:" "$work/$e.err" || fail "no Fix: hint in $e.err"
  grep -q "analyze: analyze" "$work/$e.err" && fail "doubled prefix in $e.err"
done
# ---- no ANALYSIS named: the default set (taint, uninit, uaf), said so (issue 27 item 2)
run_rc "$weir" analyze "$work/helper.bc" --source-root "$here" > "$work/default.out" 2> "$work/default.err"
cat "$work/default.out" "$work/default.err"
test $rc = 0 || fail "weir analyze FILE (no analysis) exited $rc, expected 0"
grep -q "^programs/taint_helper.c:16:10: warning: tainted data reaches argument 1 of 'system'" "$work/default.out" \
  || fail "the default set did not run taint"
grep -q "^weir analyze: no analysis named: running the default set (taint, uninit, uaf)" "$work/default.err" \
  || fail "the default set is not announced"
for analysis in taint uninit uaf; do
  grep -q "^weir analyze: $analysis of .*helper.bc: " "$work/default.err" || fail "no $analysis summary in the default set"
done
grep -q "^weir analyze: default set (taint, uninit, uaf) of .*helper.bc: [1-9][0-9]* findings\{0,1\} (taint [1-9]" \
  "$work/default.err" || fail "the default set's summary line is missing"
"$weir" analyze "$work/pointer.ll" --quiet > "$work/default2.out" || fail "weir analyze pointer.ll exited $?"
grep -q "\[weir-uninit\]" "$work/default2.out" || fail "the default set did not run uninit"
run_rc "$weir" analyze "$work/helper.bc" --fail-on-findings --quiet
test $rc = 3 || fail "the default set with --fail-on-findings exited $rc, expected 3"
# A typo is an error that lists the analyses, never a silent default.
run_rc "$weir" analyze taitn "$work/helper.bc" 2> "$work/typo.err"
cat "$work/typo.err"
test $rc = 2 || fail "a misspelled analysis exited $rc, expected 2"
grep -q "'taitn' is neither an analysis (taint, uninit, uaf, typestate, const) nor an existing file. Fix:" "$work/typo.err" \
  || fail "a misspelled analysis is not named with the list"
run_rc "$weir" analyze "$work/helper.bc" --sarif "$work/default.sarif" 2> "$work/default-sarif.err"
test $rc = 2 || fail "--sarif without an analysis exited $rc, expected 2"
grep -q "Fix: name the analysis" "$work/default-sarif.err" || fail "--sarif without an analysis: no Fix"
test ! -e "$work/default.sarif" || fail "--sarif without an analysis wrote a file"

# ---- SARIF for tools: the multitool's validation rules and GitHub's (issue 23) --
# Every SARIF file the runs above wrote, linted by check_sarif.py --lint (the
# rules of `sarif-multitool validate` and GitHub code scanning's requirements;
# the few it deliberately does not apply are listed, with the reason, in
# check_sarif.py NOT_APPLIED); then by the real multitool when it is installed.
sarifs="$work/helper.sarif $work/outside.sarif $work/example.sarif $work/multi.sarif $work/uaf.sarif
  $work/pointer.sarif $work/v1/out.sarif $work/v2/out.sarif $work/triage.sarif"
# shellcheck disable=SC2086
"$python" "$here/check_sarif.py" --lint $sarifs || fail "check_sarif.py --lint found violations (above)"
# The lint itself: a file with the violations it was written for is refused.
"$python" - "$work/helper.sarif" "$work/broken.sarif" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
driver = doc["runs"][0]["tool"]["driver"]
del driver["informationUri"]
del driver["rules"][0]["helpUri"]
driver["rules"][1]["name"] = "not pascal"
doc["runs"][0]["results"][0]["message"]["text"] = "no period"
del doc["runs"][0]["results"][0]["partialFingerprints"]
json.dump(doc, open(sys.argv[2], "w"))
PY
run_rc "$python" "$here/check_sarif.py" --lint "$work/broken.sarif" > "$work/broken.lint"
cat "$work/broken.lint"
test $rc = 1 || fail "check_sarif.py --lint of a broken file exited $rc, expected 1"
for rule in "SARIF2005: .*tool/driver: the tool 'weir' does not provide 'informationUri'" \
  "SARIF2012: .*rules/0: rule 'weir-taint-command-injection' has no helpUri" \
  "SARIF2012: .*rules/1/name: 'not pascal' is not a Pascal identifier" \
  "SARIF2001: .*results/0/message/text: 'no period' does not end with a period" \
  "GHCS: .*results/0: no partialFingerprints"; do
  grep -q "^$rule" "$work/broken.lint" || fail "check_sarif.py --lint did not report \"$rule\""
done
if command -v sarif-multitool >/dev/null 2>&1; then
  for f in $sarifs; do
    sarif-multitool validate "$f" --output "$f.validation.sarif" --force || fail "sarif-multitool validate $f failed"
  done
  echo "SARIF multitool: validated $(echo $sarifs | wc -w) files"
else
  echo "SARIF multitool: skipped (sarif-multitool not installed: it is the npm package @microsoft/sarif-multitool, not in Debian); check_sarif.py --lint applied its rules instead"
fi

# ---- typestate: --spec, the shipped FILE* protocol, a bad spec, misuse ----------
spec=$here/../../share/weir/typestate/file.spec
"$clang" -g -O0 -emit-llvm -c "$here/programs/typestate_file.c" -o "$work/ts.bc"
"$weir" analyze typestate "$work/ts.bc" --spec "$spec" --source-root "$here" --sarif "$work/ts.sarif" \
  > "$work/ts.out" || fail "weir analyze typestate exited $?"
cat "$work/ts.out"
grep -q "\[weir-typestate-double-close\]$" "$work/ts.out" || fail "typestate: no double-close finding"
grep -q "\[weir-typestate-use-after-close\]$" "$work/ts.out" || fail "typestate: no use-after-close finding"
check_sarif "$work/ts.sarif" --rules weir-typestate-double-close,weir-typestate-use-after-close
printf 'weir-typestate 1\nstates open closed\nbogus fclose\n' > "$work/bad.spec"
run_rc "$weir" analyze typestate "$work/ts.bc" --spec "$work/bad.spec" --sarif "$work/bad.sarif" 2> "$work/bad.err"
test $rc = 2 || fail "a bad spec exited $rc, expected 2"
grep -q "bad.spec:3: error: .*Fix: " "$work/bad.err" || fail "a bad spec's message lacks FILE:LINE and Fix: $(cat "$work/bad.err")"
test ! -e "$work/bad.sarif" || fail "a bad spec left a SARIF file"
printf 'weir-typestate 1\nstates unlocked locked\ncreate pthread_mutex_init arg0 unlocked\nleak locked leak 775 held\n' > "$work/memleak.spec"
run_rc "$weir" analyze typestate "$work/ts.bc" --spec "$work/memleak.spec" 2> "$work/memleak.err"
test $rc = 2 || fail "a leak line in a memory spec exited $rc, expected 2"
grep -q "memleak.spec:4: error: .leak. in a spec of memory resources.*Fix: " "$work/memleak.err" || fail "memory leak spec: $(cat "$work/memleak.err")"
"$clang" -g -O2 -emit-llvm -c "$here/programs/typestate_fd_basic.c" -o "$work/fd.bc"
"$weir" analyze typestate "$work/fd.bc" --spec "$here/../../share/weir/typestate/fd.spec" --sarif "$work/fd.sarif" \
  > "$work/fd.out" || fail "weir analyze typestate (fd.spec) exited $?"
grep -q "\[weir-typestate-leak\]$" "$work/fd.out" || fail "typestate fd.spec: no leak finding"
check_sarif "$work/fd.sarif" --rules weir-typestate-double-close,weir-typestate-use-after-close,weir-typestate-leak
run_rc "$weir" analyze typestate "$work/ts.bc" 2> "$work/nospec.err"
test $rc = 2 || fail "typestate without --spec exited $rc, expected 2"
grep -q "Fix: pass --spec FILE" "$work/nospec.err" || fail "typestate without --spec: $(cat "$work/nospec.err")"
run_rc "$weir" analyze uaf "$work/ts.bc" --spec "$spec" 2> "$work/specuaf.err"
test $rc = 2 || fail "--spec with uaf exited $rc, expected 2"

# ---- const: --emit-values JSON, the summary, misuse, --prune-with-const ------
"$clang" -g -O0 -emit-llvm -c "$here/programs/const_locals.c" -o "$work/const.bc"
"$weir" analyze const "$work/const.bc" --source-root "$here" --emit-values "$work/const.json" 2> "$work/const.err" \
  || fail "weir analyze const exited $?"
grep -q "const: [0-9]* uses, [1-9][0-9]* constant" "$work/const.err" || fail "const: no summary: $(cat "$work/const.err")"
"$python" - "$work/const.json" <<'PY' || fail "const: --emit-values is not the documented JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == 1 and d["analysis"] == "const" and d["constant"] == len(d["values"]) > 0, d
v = [x for x in d["values"] if x["name"] == "c.mode" and x["use"] == "compare"]
assert v and v[0]["value"] == 2 and v[0]["file"] == "programs/const_locals.c" and v[0]["line"] == 23, v
PY
run_rc "$weir" analyze uninit "$work/const.bc" --emit-values "$work/x.json" 2> "$work/cv.err"
test $rc = 2 || fail "--emit-values with uninit exited $rc, expected 2"
run_rc "$weir" analyze const "$work/const.bc" --prune-with-const 2> "$work/cp.err"
test $rc = 2 || fail "const --prune-with-const exited $rc, expected 2"
"$clang" -g -O0 -emit-llvm -c "$here/programs/uaf_const_dead_branch.c" -o "$work/dead.bc"
"$weir" analyze uaf "$work/dead.bc" --prune-with-const > "$work/dead.out" 2> "$work/dead.err" || fail "pruned uaf exited $?"
grep -q "const pruned [1-9][0-9]* branches" "$work/dead.err" || fail "no pruning figures: $(cat "$work/dead.err")"
test "$(grep -c "weir-use-after-free" "$work/dead.out")" = 1 || fail "pruning: expected the real finding only: $(cat "$work/dead.out")"

"$weir" analyze taint --help > "$work/help.out" || fail "weir analyze taint --help exited $?"
grep -q -- "--fail-on-findings" "$work/help.out" || fail "--help does not document --fail-on-findings"
grep -q "Exit codes" "$work/help.out" || fail "--help does not document the exit codes"
echo "cli_test: all passed"
