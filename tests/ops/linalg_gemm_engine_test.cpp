// Each dtype's CPU products run on kernels of the CPU's own instruction-set level, whatever OpenBLAS made of
// the CPU's model name. ctest runs this suite, and the products' value tests, a second time with
// OPENBLAS_CORETYPE=Prescott: the SSE3 kernels OpenBLAS falls back to on a model it does not know.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "ops/Config.h"

namespace mt {
namespace {

// This CPU's x86-64 level from the flags the kernel lists in /proc/cpuinfo (independent of the library's
// reading through the compiler's cpuid builtins).
int level_from_cpuinfo() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::set<std::string> flags;
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string w; words >> w;) flags.insert(w);
    break;
  }
  const auto has = [&](std::initializer_list<const char*> names) {
    return std::all_of(names.begin(), names.end(), [&](const char* n) { return flags.count(n) > 0; });
  };
  if (has({"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"})) return 4;
  if (has({"avx2", "fma", "bmi2"})) return 3;
  if (has({"sse4_2", "popcnt"})) return 2;
  return 1;
}

bool openblas_forced_to_prescott() {
  const char* core = std::getenv("OPENBLAS_CORETYPE");
  return core != nullptr && std::string(core) == "Prescott";
}

TEST(LinalgGemmEngine, CpuLevelIsTheOneTheKernelLists) {
#if defined(__x86_64__)
  EXPECT_EQ(cpu_x86_64_level(), level_from_cpuinfo());
#else
  GTEST_SKIP() << "x86-64 only";
#endif
}

// The best kernels the CPU can run among the engines: oneDNN compiles its own for the CPU; Eigen's are
// compiled for this build's flags.
TEST(LinalgGemmEngine, Float32RunsTheBestKernelsTheCpuAllows) {
  if (gemm_engine(kFloat32) == GemmEngine::kOneDNN) {
    EXPECT_EQ(gemm_kernel_level(kFloat32), level_from_cpuinfo()) << show_config();
  } else {
    EXPECT_GE(gemm_kernel_level(kFloat32), std::min(level_from_cpuinfo(), compiled_x86_64_level())) << show_config();
  }
}

TEST(LinalgGemmEngine, Float64RunsTheBestKernelsTheCpuAllows) {
  EXPECT_GE(gemm_kernel_level(kFloat64), std::min(level_from_cpuinfo(), compiled_x86_64_level())) << show_config();
  EXPECT_GE(gemm_kernel_level(kFloat64), openblas_x86_64_level()) << show_config();
}

TEST(LinalgGemmEngine, OpenBlasSse3KernelsAreNotUsedWhereTheCpuDoesBetter) {
  if (!openblas_forced_to_prescott()) GTEST_SKIP() << "run by ctest with OPENBLAS_CORETYPE=Prescott";
  if (openblas_x86_64_level() == 0) GTEST_SKIP() << "built without OpenBLAS";
  EXPECT_EQ(openblas_x86_64_level(), 1) << "OPENBLAS_CORETYPE=Prescott did not take: " << show_config();
  if (compiled_x86_64_level() > 1) {
    EXPECT_NE(gemm_engine(kFloat32), GemmEngine::kOpenBLAS) << show_config();
    EXPECT_NE(gemm_engine(kFloat64), GemmEngine::kOpenBLAS) << show_config();
    EXPECT_NE(show_config().find("OpenBLAS picked its Prescott kernels, below this CPU's"), std::string::npos)
        << show_config();
  }
}

TEST(LinalgGemmEngine, ShowConfigNamesEachEngineAndTheThreads) {
  const std::string config = show_config();
  EXPECT_NE(config.find("microtorch "), std::string::npos) << config;
  EXPECT_NE(config.find(std::string("float32 on ") + gemm_engine_name(gemm_engine(kFloat32))), std::string::npos)
      << config;
  EXPECT_NE(config.find(std::string("float64 on ") + gemm_engine_name(gemm_engine(kFloat64))), std::string::npos)
      << config;
  EXPECT_NE(config.find("Threads: "), std::string::npos) << config;
}

}  // namespace
}  // namespace mt
