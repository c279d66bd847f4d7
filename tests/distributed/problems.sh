# Sourced by the tests of this folder: make_problems WEIR SRC DIR writes the
# problem set of the distributed tests into DIR and lists the files in
# $DIR/list: every `weir gen` preset at a small size (two seeds each), the
# micro problems of tests/ifds/micro and the examples; and the reference
# solver's result of each next to it (FILE.ref). With WEIR_TEST_QUICK set
# (the sanitizer build, where every process start is slow) one seed per
# preset and three of the micro problems.
make_problems() {
  local weir=$1 src=$2 dir=$3 preset seed f seeds="1 2" micro="$src/tests/ifds/micro/*.ifds"
  if [ -n "${WEIR_TEST_QUICK:-}" ]; then
    seeds=1
    micro="$src/tests/ifds/micro/recursion.ifds $src/tests/ifds/micro/summary_reuse.ifds"
    micro="$micro $src/tests/ifds/micro/indirect_call.ifds"
  fi
  mkdir -p "$dir"
  : > "$dir/list"
  for preset in chain fanout recursive wide-facts loops realistic; do
    for seed in $seeds; do
      f=$dir/$preset-$seed.ifds
      local facts=12
      [ "$preset" = wide-facts ] && facts=96
      "$weir" gen "$preset" --procs 24 --nodes-per-proc 8 --facts "$facts" --seeds 3 --seed "$seed" \
        -o "$f" || return 1
      echo "$f" >> "$dir/list"
    done
  done
  # A problem with many contexts: every procedure entered with several facts.
  "$weir" gen fanout --procs 40 --nodes-per-proc 6 --facts 24 --seeds 12 --seed 7 \
    -o "$dir/many-contexts.ifds" || return 1
  echo "$dir/many-contexts.ifds" >> "$dir/list"
  # Copied in: micro/ and examples/ both have a recursion.ifds.
  for f in $micro; do cp "$f" "$dir/micro-$(basename "$f")"; echo "$dir/micro-$(basename "$f")" >> "$dir/list"; done
  for f in "$src"/examples/*.ifds; do cp "$f" "$dir/example-$(basename "$f")"; echo "$dir/example-$(basename "$f")" >> "$dir/list"; done
  while read -r f; do
    "$weir" solve "$f" --solver reference -o "$f.ref" 2>/dev/null >/dev/null || {
      echo "FAIL: the reference solver failed on $f"; return 1; }
  done < "$dir/list"
}
