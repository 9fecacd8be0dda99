#pragma once
// What this build runs on and with, as PyTorch's torch.__config__.show(): the version and build flags, the
// CPU's instruction-set level and the kernels' own, the library that runs each dtype's CPU matrix products
// and which of its kernels it picked, and the thread counts.
#include <string>

#include "tensor/ScalarType.h"

namespace mt {

std::string show_config();

// The libraries that can run a CPU matrix product (mm, bmm, addmm, matmul, linear). Each dtype's is chosen
// once per process from what the CPU can do, not from its model name: oneDNN compiles its float32 kernels
// for the CPU's instruction set; OpenBLAS picks its kernels from a table of known models and falls back to
// SSE3 ones on a model it does not know, where Eigen (compiled for this machine) runs float64 instead.
enum class GemmEngine { kEigen, kOpenBLAS, kOneDNN };

GemmEngine gemm_engine(ScalarType dtype);
const char* gemm_engine_name(GemmEngine engine);
// The x86-64 level (below) of the kernels that run dtype's products.
int gemm_kernel_level(ScalarType dtype);

// The x86-64 microarchitecture level (1 to 4: SSE2, SSE4.2, AVX2 with FMA, AVX-512) of this CPU, of the
// kernels' compile flags, and of the OpenBLAS kernels picked at load; 0 off x86-64 or without OpenBLAS.
int cpu_x86_64_level();
int compiled_x86_64_level();
int openblas_x86_64_level();

}  // namespace mt
