#!/usr/bin/env bash
# What adding an operator costs in the edit loop. In a built tree (by default the dev preset's: `cmake
# --preset dev && cmake --build --preset dev`), appends a new pointwise declaration to
# ops/native_functions/pointwise.txt, rebuilds, and prints how many translation units and precompiled
# headers were compiled and the wall time; then takes the declaration out again and rebuilds (untimed), so
# the tree is left as it was.
#   scripts/rebuild_cost.sh [function|method] [build dir]
# `function` declares `| function` (a free function mt::rebuild_cost_probe), `method` `| function method`.
set -euo pipefail
cd "$(dirname "$0")/.."
variants=${1:-function}
build_dir=${2:-build-dev}
case "$variants" in
  function) tag="function" ;;
  method) tag="function method" ;;
  *) echo "usage: $0 [function|method] [build dir]" >&2; exit 2 ;;
esac
[[ -f "$build_dir/build.ninja" ]] || { echo "$build_dir is not a configured Ninja tree: run cmake --preset dev first" >&2; exit 2; }

decls=ops/native_functions/pointwise.txt
backup=$(mktemp)
cp "$decls" "$backup"
restore() {
  cp "$backup" "$decls"
  rm -f "$backup"
  echo "rebuild_cost: declaration taken out; rebuilding $build_dir as it was (untimed)"
  cmake --build "$build_dir" >/dev/null
}
trap restore EXIT

# The tree must be up to date first, or the count would include unrelated work.
cmake --build "$build_dir" >/dev/null
echo "rebuild_cost_probe(Tensor self) -> Tensor | $tag" >>"$decls"

log=$(mktemp)
start=$(date +%s.%N)
# Ninja prints "[i/n] Building CXX object <object>" for each compile command it runs.
cmake --build "$build_dir" >"$log" 2>&1 || { cat "$log"; exit 1; }
end=$(date +%s.%N)
tus=$(grep -cE 'Building (CXX|CUDA) object .*\.o$' "$log" || true)
pchs=$(grep -cE 'Building CXX object .*\.(gch|pch)$' "$log" || true)
printf 'rebuild_cost: a new `| %s` op in %s rebuilt %d translation units and %d precompiled headers in %.0f s\n' \
  "$tag" "$decls" "$tus" "$pchs" "$(awk "BEGIN { print $end - $start }")"
if [[ -n "${REBUILD_COST_LIST:-}" ]]; then
  grep -oE 'Building (CXX|CUDA) object \S+' "$log" | awk '{print $4}' | sort
fi
rm -f "$log"
