#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds microtorch with CUDA (Release), then runs the CUDA tests
# (ctest -L cuda, and the OpInfo table's CUDA rows), the CUDA benchmarks and the MLP and
# per-sample-gradients examples on the GPU, and prints one summary. Meant to finish in under 8 minutes
# on an H200; BUILD_DIR picks the build folder.
# Where the machine lacks Eigen, GoogleTest or Google Benchmark and cannot install them, run
# ./scripts/gpu_deps.sh on a Debian machine and carry the .gpu_deps folder it makes: it is used when
# present. When $OUT is set (the device tool's output folder), the logs are also packed into it.
set -uo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build-gpu}
log_dir="$build_dir/gpu_check"
start=$(date +%s)
summary=()
status=0
step() {  # step <name> <command...>: runs the command, logs it, and records PASS/FAIL with the time
  local name=$1
  shift
  local t0=$(date +%s)
  if "$@" > "$log_dir/$name.log" 2>&1; then
    summary+=("PASS  $name ($(( $(date +%s) - t0 )) s)")
  else
    summary+=("FAIL  $name ($(( $(date +%s) - t0 )) s): see $log_dir/$name.log")
    status=1
  fi
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not found"
for tool in "${CXX:-c++}" nvcc cmake ninja; do echo "$tool: $("$tool" --version 2>&1 | grep -m1 -iE 'version|release' || echo 'not found')"; done
mkdir -p "$log_dir"
deps=()
[[ -d .gpu_deps/usr ]] && deps=(-DCMAKE_PREFIX_PATH="$PWD/.gpu_deps/usr")
step configure cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMT_CUDA=ON -DMT_BUILD_TESTS=ON "${deps[@]}"
step build cmake --build "$build_dir" -j "$(nproc)" --target test_cuda test_opinfo microtorch_bench mlp_train per_sample_grads
step cuda_tests ctest --test-dir "$build_dir" -L cuda --output-on-failure -j 4
step opinfo_cuda "$build_dir/tests/test_opinfo" --gtest_filter='*Cuda*'
step cuda_benchmarks "$build_dir/benchmarks/microtorch_bench" --benchmark_filter='BM_Cuda' --benchmark_min_time=0.5
step mlp_train_cuda "$build_dir/examples/mlp_train" 10 cuda
step per_sample_grads_cuda "$build_dir/examples/per_sample_grads" cuda

echo
echo "=== gpu_check summary ($(( $(date +%s) - start )) s) ==="
printf '%s\n' "${summary[@]}"
grep -h "tests passed\|tests failed" "$log_dir/cuda_tests.log" 2>/dev/null
grep -h "PASSED\|FAILED\|SKIPPED" "$log_dir/opinfo_cuda.log" 2>/dev/null | head -5
echo "cuda tests skipped (no GPU?): $(grep -c '(Skipped)' "$log_dir/cuda_tests.log" 2>/dev/null)"
grep -hE "^BM_Cuda" "$log_dir/cuda_benchmarks.log" 2>/dev/null
grep -h "test accuracy" "$log_dir/mlp_train_cuda.log" 2>/dev/null
grep -h "faster\|largest difference" "$log_dir/per_sample_grads_cuda.log" 2>/dev/null
[[ -n "${OUT:-}" ]] && tar czf "$OUT/gpu_check_logs.tgz" -C "$log_dir" .
exit $status
