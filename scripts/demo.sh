#!/usr/bin/env bash
# Installs what is missing, builds microtorch (Release) and runs the demos: the tour of the dispatcher,
# then training an MLP (with the no_grad / inference_mode evaluation timings), then its per-sample
# gradients with vmap(grad) against a loop.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMT_BUILD_EXAMPLES=ON
cmake --build "$build_dir" -j "$(nproc)" --target tour mlp_train per_sample_grads
"$build_dir/examples/tour"
echo
"$build_dir/examples/mlp_train"
echo
"$build_dir/examples/per_sample_grads"
