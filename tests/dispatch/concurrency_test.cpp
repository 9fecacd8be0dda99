// Calls while other threads register and deregister kernels: a call sees the old or the new kernel, never
// a torn one, and never crashes. The test code itself shares only atomics between threads, so these
// tests are meant to run under ThreadSanitizer too (-DMT_SANITIZE=thread; gtest filter "Concurrency*").
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dispatch_test_helpers.h"
#include "ops/api/empty.h"
#include "ops/api/ones.h"
#include "ops/api/std.h"
#include "ops/api/view.h"

using mt::DispatchKey;
using mt::DispatchKeySet;
using mt::Library;
using mt::Tensor;
using mt_test::op_handle;

namespace {
using IntOfTensor = int64_t(const Tensor&);
constexpr auto kChurnTime = std::chrono::milliseconds(500);
constexpr int kReaders = 3;

struct Outcomes {
  std::atomic<int64_t> calls{0};
  std::atomic<int64_t> invalid{0};  // a result no registered kernel produces
  std::atomic<int64_t> errors{0};   // an exception
  std::atomic<int64_t> seen_mask{0};  // bit per distinct valid result, to show the churn was observed
};

void record(Outcomes& out, int64_t result, std::initializer_list<int64_t> valid) {
  out.calls.fetch_add(1, std::memory_order_relaxed);
  int bit = 0;
  for (int64_t v : valid) {
    if (v == result) {
      out.seen_mask.fetch_or(int64_t(1) << bit, std::memory_order_relaxed);
      return;
    }
    ++bit;
  }
  out.invalid.fetch_add(1, std::memory_order_relaxed);
}

// Runs `writer_step(iteration)` for kChurnTime while kReaders threads run `reader()` until it is over.
template <typename Writer, typename Reader>
void churn(Writer writer_step, Reader reader) {
  std::atomic<bool> done{false};
  std::vector<std::thread> readers;
  for (int i = 0; i < kReaders; ++i) {
    readers.emplace_back([&] {
      while (!done.load(std::memory_order_acquire)) reader();
    });
  }
  const auto until = std::chrono::steady_clock::now() + kChurnTime;
  for (int64_t i = 0; std::chrono::steady_clock::now() < until; ++i) writer_step(i);
  done.store(true, std::memory_order_release);
  for (auto& t : readers) t.join();
}
}  // namespace

TEST(Concurrency, CallsDuringKernelRegistrationAndDeregistrationSeeOnlyRegisteredKernels) {
  Library def(Library::DEF, "t_conc_kernels");
  def.def("op(Tensor x) -> int");
  Library base(Library::IMPL, "t_conc_kernels");
  base.impl("op", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  base.impl("op", mt::dispatch(DispatchKey::Meta, [](const Tensor&) -> int64_t { return 4; }));
  const auto op = op_handle("t_conc_kernels::op").typed<IntOfTensor>();
  const Tensor cpu = mt::ones({1}), meta = mt::empty({1}, mt::Device("meta"));

  Outcomes unboxed, boxed, on_meta;
  auto writer = [&](int64_t i) {
    std::optional<Library> cpu_override, autograd_cpu, autograd_alias;
    const std::string tag = "override";  // captured state that must outlive calls still running the kernel
    auto make_override = [&] {
      cpu_override.emplace(Library::IMPL, "t_conc_kernels", DispatchKey::CPU);
      cpu_override->impl("op", [tag](const Tensor&) -> int64_t { return tag.size() == 8 ? 3 : -1; });
    };
    auto make_autograd_cpu = [&] {
      autograd_cpu.emplace(Library::IMPL, "t_conc_kernels", DispatchKey::AutogradCPU);
      autograd_cpu->impl("op", [](DispatchKeySet ks, const Tensor& x) -> int64_t {
        return 100 + op_handle("t_conc_kernels::op").typed<IntOfTensor>().redispatch(ks & mt::after_autograd_keyset, x);
      });
    };
    auto make_autograd_alias = [&] {
      autograd_alias.emplace(Library::IMPL, "t_conc_kernels", DispatchKey::Autograd);
      autograd_alias->impl("op", [](DispatchKeySet ks, const Tensor& x) -> int64_t {
        return 100 + op_handle("t_conc_kernels::op").typed<IntOfTensor>().redispatch(ks & mt::after_autograd_keyset, x);
      });
    };
    // Vary which registrations exist together and the order they go away in.
    if (i % 2 == 0) make_override();
    if (i % 3 != 0) make_autograd_cpu();
    if (i % 5 != 0) make_autograd_alias();
    if (i % 4 < 2) {
      cpu_override.reset();
      autograd_alias.reset();
    } else {
      autograd_cpu.reset();
      cpu_override.reset();
    }
  };
  auto reader = [&] {
    try {
      record(unboxed, op.call(cpu), {1, 3, 101, 103});
      mt::Stack s{mt::IValue(cpu)};
      op.callBoxed(s);
      record(boxed, s.at(0).toInt(), {1, 3, 101, 103});
      record(on_meta, op.call(meta), {4, 104});
    } catch (const std::exception&) {
      unboxed.errors.fetch_add(1, std::memory_order_relaxed);
    }
  };
  churn(writer, reader);

  EXPECT_GT(unboxed.calls.load(), 0);
  EXPECT_EQ(unboxed.errors.load(), 0);
  EXPECT_EQ(unboxed.invalid.load(), 0);
  EXPECT_EQ(boxed.invalid.load(), 0);
  EXPECT_EQ(on_meta.invalid.load(), 0);
  // The readers did run while registrations changed: they saw more than one kernel's result.
  EXPECT_GT(std::popcount(static_cast<uint64_t>(unboxed.seen_mask.load() | boxed.seen_mask.load())), 1);
  // After the churn only the base kernels are left.
  EXPECT_EQ(op.call(cpu), 1);
  EXPECT_EQ(op.call(meta), 4);
  EXPECT_EQ(mt_test::backend_rows(op_handle("t_conc_kernels::op")),
            "CPU: [kernel]\nMeta: [kernel]\n" + mt_test::kAutogradFallbackRows);
}

TEST(Concurrency, CallsDuringAliasAndFallbackChurnSeeOnlyValidKernels) {
  Library def(Library::DEF, "t_conc_alias");
  def.def("op(Tensor x) -> int");
  Library base(Library::IMPL, "t_conc_alias", DispatchKey::CPU);
  base.impl("op", [](const Tensor&) -> int64_t { return 1; });
  const auto op = op_handle("t_conc_alias::op").typed<IntOfTensor>();
  const Tensor cpu = mt::ones({1});
  const Tensor pu1 = mt_test::tensor_keyed_as(mt::kPrivateUse1);

  Outcomes on_cpu, on_pu1;
  std::atomic<int64_t> pu1_missing{0};
  auto writer = [&](int64_t i) {
    std::optional<Library> cii, cea, fallback;
    if (i % 2 == 0) {
      cii.emplace(Library::IMPL, "t_conc_alias", DispatchKey::CompositeImplicitAutograd);
      cii->impl("op", [](const Tensor&) -> int64_t { return 30; });
    }
    if (i % 3 == 0) {
      cea.emplace(Library::IMPL, "t_conc_alias", DispatchKey::CompositeExplicitAutograd);
      cea->impl("op", [](const Tensor&) -> int64_t { return 40; });
    }
    fallback.emplace(Library::IMPL, "_", DispatchKey::PrivateUse1);
    fallback->fallback(mt::CppFunction::makeFromBoxedLambda([](const mt::OperatorHandle&, DispatchKeySet, mt::Stack* s) {
      s->clear();
      s->emplace_back(int64_t(50));
    }));
    if (i % 4 < 2) cii.reset();
  };
  auto reader = [&] {
    try {
      record(on_cpu, op.call(cpu), {1});  // a CPU kernel always exists and always wins on CPU
    } catch (const std::exception&) {
      on_cpu.errors.fetch_add(1, std::memory_order_relaxed);
    }
    try {
      record(on_pu1, op.call(pu1), {30, 40, 50});
    } catch (const mt::NotImplementedError&) {
      pu1_missing.fetch_add(1, std::memory_order_relaxed);  // between a fallback's removal and the next one
    } catch (const std::exception&) {
      on_pu1.errors.fetch_add(1, std::memory_order_relaxed);
    }
  };
  churn(writer, reader);

  EXPECT_GT(on_cpu.calls.load(), 0);
  EXPECT_EQ(on_cpu.errors.load(), 0);
  EXPECT_EQ(on_cpu.invalid.load(), 0);
  EXPECT_EQ(on_pu1.errors.load(), 0);
  EXPECT_EQ(on_pu1.invalid.load(), 0);
  EXPECT_EQ(mt_test::backend_rows(op_handle("t_conc_alias::op")), "CPU: [kernel]\n" + mt_test::kAutogradFallbackRows);
}

// A per-op fallthrough registered while calls run: the extractor masks the key before the slot holds
// the fallthrough, but a call that read the mask just before may still load the new slot afterwards.
TEST(Concurrency, CallsDuringFallthroughChurnNeverRunTheFallthroughKernel) {
  Library def(Library::DEF, "t_conc_ft");
  def.def("op(Tensor x) -> int");
  Library base(Library::IMPL, "t_conc_ft");
  base.impl("op", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  base.impl("op", mt::dispatch(DispatchKey::Autograd, [](DispatchKeySet ks, const Tensor& x) -> int64_t {
              return 100 + op_handle("t_conc_ft::op").typed<IntOfTensor>().redispatch(ks & mt::after_autograd_keyset, x);
            }));
  const auto op = op_handle("t_conc_ft::op").typed<IntOfTensor>();
  const Tensor cpu = mt::ones({1});
  Outcomes out;
  auto writer = [&](int64_t) {
    Library fallthrough(Library::IMPL, "t_conc_ft", DispatchKey::AutogradCPU);
    fallthrough.impl("op", mt::CppFunction::makeFallthrough());
  };
  auto reader = [&] {
    try {
      record(out, op.call(cpu), {1, 101});
    } catch (const std::exception&) {
      out.errors.fetch_add(1, std::memory_order_relaxed);
    }
  };
  churn(writer, reader);
  EXPECT_GT(out.calls.load(), 0);
  EXPECT_EQ(out.invalid.load(), 0);
  EXPECT_EQ(out.errors.load(), 0) << "calls ran into the fallthrough kernel while it was being registered";
  EXPECT_EQ(out.seen_mask.load(), 0b11);  // both the skipped (1) and the unskipped (101) path were taken
  EXPECT_EQ(op.call(cpu), 101);
}

// KNOWN LIMITATION (disabled; see the report): redispatch() uses the key set computed at call time without
// re-applying the fallthrough masks, by design (a redispatch into a fallthrough slot is an error, see
// fallthrough_test.cpp). If an operator's own ADInplaceOrView kernel is deregistered between the call
// computing its key set and the Autograd kernel redispatching below autograd, the ADInplaceOrView slot
// has reverted to the global fallthrough and the redispatch raises "fallthrough_kernel was executed".
// lookupForCall() closes this window for call()/callBoxed() only.
TEST(Concurrency, DISABLED_RedispatchDuringDeregistrationOfALowerLayerKernelNeverRunsAFallthrough) {
  Library def(Library::DEF, "t_conc_redispatch");
  def.def("op(Tensor x) -> int");
  Library base(Library::IMPL, "t_conc_redispatch");
  base.impl("op", mt::dispatch(DispatchKey::CPU, [](const Tensor&) -> int64_t { return 1; }));
  base.impl("op", mt::dispatch(DispatchKey::Autograd, [](DispatchKeySet ks, const Tensor& x) -> int64_t {
              return 100 + op_handle("t_conc_redispatch::op").typed<IntOfTensor>().redispatch(ks & mt::after_autograd_keyset, x);
            }));
  const auto op = op_handle("t_conc_redispatch::op").typed<IntOfTensor>();
  const Tensor cpu = mt::ones({1});
  Outcomes out;
  auto writer = [&](int64_t) {
    Library view(Library::IMPL, "t_conc_redispatch", DispatchKey::ADInplaceOrView);
    view.impl("op", [](DispatchKeySet ks, const Tensor& x) -> int64_t {
      return 10 + op_handle("t_conc_redispatch::op").typed<IntOfTensor>().redispatch(ks & mt::after_ADInplaceOrView_keyset, x);
    });
  };
  auto reader = [&] {
    try {
      record(out, op.call(cpu), {101, 111});
    } catch (const std::exception&) {
      out.errors.fetch_add(1, std::memory_order_relaxed);
    }
  };
  churn(writer, reader);
  EXPECT_GT(out.calls.load(), 0);
  EXPECT_EQ(out.invalid.load(), 0);
  EXPECT_EQ(out.errors.load(), 0) << "a redispatch ran into a slot that became a fallthrough after the call began";
}
