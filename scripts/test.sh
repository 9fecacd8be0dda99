#!/usr/bin/env bash
# Installs what is missing, builds microtorch with its tests (Release) and runs every test with ctest.
# Extra arguments go to CMake, e.g. ./scripts/test.sh -DMT_CUDA=OFF. BUILD_DIR picks the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
build_dir=${BUILD_DIR:-build}
jobs=$(nproc)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DMT_BUILD_TESTS=ON "$@"
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
