#!/usr/bin/env bash
# Bundles this machine's Eigen, GoogleTest and Google Benchmark (Debian's packages: headers, libraries and
# CMake package files) into .gpu_deps/usr, for a GPU machine that has the CUDA toolkit, CMake and a
# compiler but none of these and no package registry. Carry .gpu_deps there; scripts/gpu_check.sh
# finds the bundle by itself. The package files locate everything relative to themselves, so the
# bundle works from any folder.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
bundle=.gpu_deps/usr
multiarch=lib/x86_64-linux-gnu
rm -rf .gpu_deps
mkdir -p "$bundle/include" "$bundle/$multiarch/cmake" "$bundle/share"
cp -a /usr/include/eigen3 /usr/include/gtest /usr/include/gmock /usr/include/benchmark "$bundle/include/"
cp -a /usr/share/eigen3 "$bundle/share/"
cp -a /usr/$multiarch/cmake/GTest /usr/$multiarch/cmake/benchmark "$bundle/$multiarch/cmake/"
cp -a /usr/$multiarch/libgtest*.a /usr/$multiarch/libgmock*.a /usr/$multiarch/libbenchmark* "$bundle/$multiarch/"
du -sh .gpu_deps
