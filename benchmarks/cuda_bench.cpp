// CUDA benchmarks: memory bandwidth of a large add (H200 HBM3e peaks near 4.8 TB/s), matmul throughput
// on cuBLAS in float32 (TF32 off) and bfloat16 (tensor cores), the host-side cost of one small op
// (dispatch, iterator and launch, without waiting for the GPU), and one MLP training step. Each waits
// for the GPU before the clock stops; the clock is the thread's CPU time, which counts the wait because
// the CUDA runtime spins while there are fewer active contexts than cores (its default schedule).
// Without a GPU (or a CUDA build) they report why and skip.
#include <benchmark/benchmark.h>
#include <microtorch/microtorch.h>

#include <map>
#include <string>
#include <utility>

#ifdef MT_WITH_CUDA
#include "tensor/cuda/CUDAContext.h"
#endif

#include "mlp_net.h"

namespace {

const mt::TensorOptions kOnCuda = mt::TensorOptions().device(mt::kCUDA);

// True when the benchmark can run; otherwise marks it skipped with the reason.
bool have_gpu(benchmark::State& state) {
#ifdef MT_WITH_CUDA
  if (mt::cuda::is_available()) return true;
  try {
    mt::cuda::check_cuda_available();
  } catch (const mt::Error& e) {
    state.SkipWithError(("skipped: no CUDA device: " + std::string(e.what())).c_str());
  }
  return false;
#else
  state.SkipWithError("skipped: microtorch was built without CUDA");
  return false;
#endif
}

void synchronize() {
#ifdef MT_WITH_CUDA
  mt::cuda::synchronize();
#endif
}

// The argument is the size of each operand in bytes; two are read and one written per add.
void BM_CudaAddLarge(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const int64_t n = state.range(0) / 4;
  // Filled on the device: the values do not matter to a bandwidth test, and drawing 2^28 normals on the
  // host takes seconds.
  const mt::Tensor a = mt::ones({n}, kOnCuda), b = mt::ones({n}, kOnCuda);
  mt::Tensor out = mt::empty({n}, kOnCuda);
  mt::add_out(out, a, b);
  synchronize();
  for (auto _ : state) {
    mt::add_out(out, a, b);
    synchronize();
  }
  state.SetBytesProcessed(state.iterations() * 3 * state.range(0));
}
BENCHMARK(BM_CudaAddLarge)->Arg(268435456);

// Random operands (tensor cores run faster on constant data), drawn once per process: drawing them on
// the host takes seconds, and the library reruns a benchmark's function for each round of its search
// for an iteration count.
const std::pair<mt::Tensor, mt::Tensor>& random_operands(int64_t n, mt::ScalarType dtype) {
  static std::map<std::pair<int64_t, mt::ScalarType>, std::pair<mt::Tensor, mt::Tensor>> cache;
  auto [it, fresh] = cache.try_emplace({n, dtype});
  if (fresh) it->second = {mt::randn({n, n}, kOnCuda.dtype(dtype)), mt::randn({n, n}, kOnCuda.dtype(dtype))};
  return it->second;
}

void matmul(benchmark::State& state, mt::ScalarType dtype) {
  if (!have_gpu(state)) return;
  const int64_t n = state.range(0);
  const auto& [a, b] = random_operands(n, dtype);
  mt::Tensor c = mt::empty({n, n}, kOnCuda.dtype(dtype));
  mt::mm_out(c, a, b);  // creates the cuBLAS handle and workspace
  synchronize();
  for (auto _ : state) {
    mt::mm_out(c, a, b);
    synchronize();
  }
  state.counters["TFLOPS"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations() / 1e12, benchmark::Counter::kIsRate);
}
void BM_CudaMatmul(benchmark::State& state) { matmul(state, mt::kFloat32); }
BENCHMARK(BM_CudaMatmul)->Arg(4096);
void BM_CudaMatmulBF16(benchmark::State& state) { matmul(state, mt::kBFloat16); }
BENCHMARK(BM_CudaMatmulBF16)->Arg(8192);

// The GPU finishes a 1024-element add long before the host queues the next, so the time per
// iteration is the host's: dispatch, TensorIterator, allocation from the cache and the launch.
void BM_CudaAddSmall(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const mt::Tensor a = mt::randn({1024}, kOnCuda), b = mt::randn({1024}, kOnCuda);
  benchmark::DoNotOptimize(mt::add(a, b));
  synchronize();
  for (auto _ : state) benchmark::DoNotOptimize(mt::add(a, b));
  synchronize();
}
BENCHMARK(BM_CudaAddSmall);

void BM_CudaMLPTrainStep(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const int64_t batch = state.range(0);
  mt::Generator g(0);
  mt_bench::Net net(784, 128, 10, &g);
  net.to(mt::Device(mt::kCUDA));
  mt::optim::SGD sgd(net.parameters(), {.lr = 0.01});
  const mt::Tensor x = mt::randn({batch, 784}, &g).to(mt::kCUDA);
  const mt::Tensor y = mt::randint(0, 10, {batch}, &g).to(mt::kCUDA);
  for (auto _ : state) {
    sgd.zero_grad();
    const mt::Tensor loss = mt::cross_entropy_loss(net.forward(x), y);
    loss.backward();
    sgd.step();
    synchronize();
  }
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_CudaMLPTrainStep)->Arg(4096);

}  // namespace
