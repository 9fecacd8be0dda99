// Every operator with a CPU kernel has a CUDA kernel too: the registrations, checked without a GPU
// (a CUDA build registers its kernels whether or not a device is present).
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <string>
#include <vector>

#include "dispatch/Dispatcher.h"

namespace {

TEST(CudaKernelCoverage, EveryOperatorWithACpuKernelHasACudaKernel) {
#ifndef MT_WITH_CUDA
  GTEST_SKIP() << "microtorch was built without CUDA";
#endif
  mt::Dispatcher& dispatcher = mt::Dispatcher::singleton();
  std::vector<std::string> missing;
  int with_cpu = 0;
  for (const mt::OperatorName& name : dispatcher.getAllOpNames()) {
    if (name.ns != "mt") continue;
    const mt::OperatorHandle op = *dispatcher.findOp(name);
    if (!op.hasKernelForDispatchKey(mt::DispatchKey::CPU)) continue;
    ++with_cpu;
    if (!op.hasKernelForDispatchKey(mt::DispatchKey::CUDA)) missing.push_back(name.str());
  }
  EXPECT_GT(with_cpu, 100);
  EXPECT_TRUE(missing.empty()) << "no CUDA kernel: " << ::testing::PrintToString(missing);
}

}  // namespace
