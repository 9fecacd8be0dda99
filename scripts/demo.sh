#!/usr/bin/env bash
# Installs what is missing, builds microtorch (Release) and runs the demos: the tour of the dispatcher,
# then training an MLP (with the no_grad / inference_mode evaluation timings), then its per-sample
# gradients with vmap(grad) against a loop, then 2 epochs of an MLP on Fashion-MNIST (Debian's
# dataset-fashion-mnist, which the install step adds).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMT_BUILD_EXAMPLES=ON
cmake --build "$build_dir" -j "$(nproc)" --target tour mlp_train per_sample_grads fashion_mnist
"$build_dir/examples/tour"
echo
"$build_dir/examples/mlp_train"
echo
"$build_dir/examples/per_sample_grads"
echo
"$build_dir/examples/fashion_mnist" mlp 2
