#include "ops/Config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#ifdef MT_WITH_BLAS
#include <cblas.h>
#endif
#ifdef MT_WITH_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include "ops/infra/Parallel.h"
#include "tensor/Error.h"

namespace mt {
namespace {

#if defined(__x86_64__)
// __builtin_cpu_supports's answers: nonzero where the CPU has the feature.
bool cpu_has(std::initializer_list<int> features) {
  return std::all_of(features.begin(), features.end(), [](int f) { return f != 0; });
}
#endif

// OpenBLAS's kernel sets (its DYNAMIC_ARCH core names) by the level of the instructions they use; a name
// not listed (Prescott, Core2, Atom, Opteron...) uses SSE3 at most.
int openblas_core_level(std::string_view core) {
  std::string name(core);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* avx512 : {"skylakex", "cooperlake", "sapphirerapids"})
    if (name == avx512) return 4;
  for (const char* avx2 : {"haswell", "zen", "excavator"})
    if (name == avx2) return 3;
  for (const char* sse42 : {"nehalem", "sandybridge", "bulldozer", "piledriver", "steamroller"})
    if (name == sse42) return 2;
  return 1;
}

#ifdef MT_WITH_DNNL
// oneDNN's name for the instruction set it compiles its kernels for (float32 GEMM takes the AVX-512 part of
// avx512_core_amx), and that set's level.
struct DnnlIsa {
  const char* name;
  int level;
};
DnnlIsa dnnl_isa() {
  switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_sse41: return {"sse41", 2};
    case dnnl_cpu_isa_avx: return {"avx", 2};
    case dnnl_cpu_isa_avx2: return {"avx2", 3};
    case dnnl_cpu_isa_avx2_vnni: return {"avx2_vnni", 3};
    case dnnl_cpu_isa_avx512_core: return {"avx512_core", 4};
    case dnnl_cpu_isa_avx512_core_vnni: return {"avx512_core_vnni", 4};
    case dnnl_cpu_isa_avx512_core_bf16: return {"avx512_core_bf16", 4};
    case dnnl_cpu_isa_avx512_core_amx: return {"avx512_core_amx", 4};
    default: return {"no JIT", 1};
  }
}
#endif

// The level of the kernels an engine runs.
int engine_level(GemmEngine engine) {
  switch (engine) {
#ifdef MT_WITH_DNNL
    case GemmEngine::kOneDNN: return dnnl_isa().level;
#endif
    case GemmEngine::kOpenBLAS: return openblas_x86_64_level();
    default: return compiled_x86_64_level();
  }
}

// The engines that can run a dtype's products, best first: the one whose kernels have the highest level
// wins, and a tie goes to the first (oneDNN's float32 kernels matched or beat OpenBLAS's on every product
// the benchmarks make, on AVX2 as on AVX-512).
GemmEngine choose(ScalarType dtype) {
  std::vector<GemmEngine> candidates;
#ifdef MT_WITH_DNNL
  if (dtype == kFloat32) candidates.push_back(GemmEngine::kOneDNN);
#endif
#ifdef MT_WITH_BLAS
  if (dtype == kFloat32 || dtype == kFloat64) candidates.push_back(GemmEngine::kOpenBLAS);
#endif
  candidates.push_back(GemmEngine::kEigen);
  return *std::max_element(candidates.begin(), candidates.end(),
                           [](GemmEngine a, GemmEngine b) { return engine_level(a) < engine_level(b); });
}

std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

const char* level_name(int level) {
  switch (level) {
    case 1: return "x86-64 (SSE2)";
    case 2: return "x86-64-v2 (SSE4.2)";
    case 3: return "x86-64-v3 (AVX2, FMA)";
    case 4: return "x86-64-v4 (AVX-512)";
    default: return "not x86-64";
  }
}

// What runs a dtype's products, and which of the engine's kernels.
std::string engine_detail(ScalarType dtype) {
  std::ostringstream out;
  const GemmEngine engine = gemm_engine(dtype);
  out << gemm_engine_name(engine);
  switch (engine) {
    case GemmEngine::kOneDNN:
#ifdef MT_WITH_DNNL
      out << ' ' << dnnl_version()->major << '.' << dnnl_version()->minor << '.' << dnnl_version()->patch << ", "
          << "kernels compiled for " << dnnl_isa().name;
#endif
      break;
    case GemmEngine::kOpenBLAS:
#ifdef MT_WITH_BLAS
      out << ", " << openblas_get_corename() << " kernels";
#endif
      break;
    case GemmEngine::kEigen:
      out << ' ' << EIGEN_WORLD_VERSION << '.' << EIGEN_MAJOR_VERSION << '.' << EIGEN_MINOR_VERSION << ", "
          << level_name(compiled_x86_64_level());
#ifdef MT_WITH_BLAS
      if ((dtype == kFloat32 || dtype == kFloat64) && openblas_x86_64_level() < compiled_x86_64_level())
        out << " (OpenBLAS picked its " << openblas_get_corename() << " kernels, below this CPU's)";
#endif
      break;
  }
  return out.str();
}

}  // namespace

int cpu_x86_64_level() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (cpu_has({__builtin_cpu_supports("avx512f"), __builtin_cpu_supports("avx512bw"),
               __builtin_cpu_supports("avx512cd"), __builtin_cpu_supports("avx512dq"),
               __builtin_cpu_supports("avx512vl")}))
    return 4;
  if (cpu_has({__builtin_cpu_supports("avx2"), __builtin_cpu_supports("fma"), __builtin_cpu_supports("bmi2")}))
    return 3;
  if (cpu_has({__builtin_cpu_supports("sse4.2"), __builtin_cpu_supports("popcnt")})) return 2;
  return 1;
#else
  return 0;
#endif
}

int compiled_x86_64_level() {
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512DQ__)
  return 4;
#elif defined(__AVX2__) && defined(__FMA__)
  return 3;
#elif defined(__SSE4_2__)
  return 2;
#elif defined(__x86_64__)
  return 1;
#else
  return 0;
#endif
}

int openblas_x86_64_level() {
#if defined(MT_WITH_BLAS) && defined(__x86_64__)
  return openblas_core_level(openblas_get_corename());
#else
  return 0;
#endif
}

GemmEngine gemm_engine(ScalarType dtype) {
  static const GemmEngine f32 = choose(kFloat32), f64 = choose(kFloat64);
  return dtype == kFloat32 ? f32 : dtype == kFloat64 ? f64 : GemmEngine::kEigen;
}

int gemm_kernel_level(ScalarType dtype) { return engine_level(gemm_engine(dtype)); }

const char* gemm_engine_name(GemmEngine engine) {
  switch (engine) {
    case GemmEngine::kEigen: return "Eigen";
    case GemmEngine::kOpenBLAS: return "OpenBLAS";
    case GemmEngine::kOneDNN: return "oneDNN";
  }
  return "?";
}

std::string show_config() {
  std::ostringstream out;
  out << "microtorch " << MT_VERSION << '\n'
      << "  Build: " << MT_BUILD_TYPE << ", " << MT_COMPILER << ", C++" << __cplusplus / 100 % 100
      << ", kernels for " << level_name(compiled_x86_64_level())
#ifdef MT_WITH_CUDA
      << ", CUDA on"
#else
      << ", CUDA off"
#endif
      << '\n'
      << "  CPU: " << cpu_model_name() << ", " << level_name(cpu_x86_64_level()) << '\n'
      << "  Matrix products: float32 on " << engine_detail(kFloat32) << "; float64 on " << engine_detail(kFloat64)
      << "; 16-bit floats and integers on " << engine_detail(kInt64) << '\n'
      << "  Threads: " << get_num_threads() << " (CPUs this process may use: " << available_cpus()
      << (std::getenv("MT_NUM_THREADS") ? "; MT_NUM_THREADS is set" : "") << ")\n";
  return out.str();
}

}  // namespace mt
