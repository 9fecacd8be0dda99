// A backend added from outside the library, with nothing but the public API: an allocator for
// PrivateUse1 memory, an `empty` kernel (factories reach a backend through BackendSelect, like any op),
// and one boxed fallback at the PrivateUse1 key that runs every operator through its CPU kernel (copy
// arguments to CPU, redispatch to CPU, copy results back). Its "device memory" is plain
// host memory from malloc, so the test can check values.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "dispatch_test_helpers.h"
#include "tensor/Allocator.h"
#include "ops/api/empty.h"
#include "ops/api/neg.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"

using mt::DispatchKey;
using mt::DispatchKeySet;
using mt::IValue;
using mt::Library;
using mt::Stack;
using mt::Tensor;
using mt_test::op_handle;

namespace {

std::atomic<int64_t> live_allocations{0};
std::atomic<int64_t> fallback_calls{0};

class MallocPrivateUse1Allocator final : public mt::Allocator {
 public:
  mt::DataPtr allocate(size_t nbytes) override {
    void* p = std::malloc(nbytes == 0 ? 1 : nbytes);
    live_allocations.fetch_add(1);
    return mt::DataPtr(p, p, &release, mt::Device(mt::kPrivateUse1, 0));
  }

 private:
  static void release(void* p) {
    std::free(p);
    live_allocations.fetch_sub(1);
  }
};
MallocPrivateUse1Allocator pu1_allocator;

const mt::Device kPU1(mt::kPrivateUse1, 0);

// Copies a contiguous tensor's bytes into a new tensor on `device`.
Tensor copy_to(const Tensor& t, mt::Device device) {
  EXPECT_TRUE(t.is_contiguous());
  Tensor out = mt::empty(t.sizes(), mt::TensorOptions().dtype(t.dtype()).device(device));
  if (t.nbytes() > 0) std::memcpy(out.data_ptr(), t.data_ptr(), t.nbytes());
  return out;
}
Tensor pu1_tensor(const std::vector<float>& values) { return copy_to(mt::tensor(values), kPU1); }
std::vector<float> values_of(const Tensor& t) {
  const Tensor cpu = copy_to(t, mt::Device(mt::kCPU));
  const float* p = cpu.data_ptr<float>();
  return std::vector<float>(p, p + cpu.numel());
}
bool on_pu1(const IValue& v) { return v.isTensor() && v.toTensorRef().device().type() == mt::kPrivateUse1; }

// The backend's only "kernel": every operator, by way of its CPU kernel.
void cpu_fallback(const mt::OperatorHandle& op, DispatchKeySet, Stack* stack) {
  fallback_calls.fetch_add(1);
  const mt::FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  std::vector<std::pair<Tensor, Tensor>> written;  // (PrivateUse1 original, CPU copy) of Tensor(a!) arguments
  IValue* args = stack->data() + stack->size() - n;
  for (size_t i = 0; i < n; ++i) {
    if (on_pu1(args[i])) {
      Tensor original = args[i].toTensor();
      Tensor cpu = copy_to(original, mt::Device(mt::kCPU));
      const auto& alias = schema.arguments[i].alias;
      if (alias && alias->is_write) written.emplace_back(original, cpu);
      args[i] = IValue(cpu);
    } else if (args[i].isTensorList()) {
      std::vector<Tensor> list;
      for (const Tensor& t : args[i].toTensorList())
        list.push_back(t.device().type() == mt::kPrivateUse1 ? copy_to(t, mt::Device(mt::kCPU)) : t);
      args[i] = IValue(std::move(list));
    }
  }
  op.redispatchBoxed(DispatchKeySet(DispatchKey::CPU), stack);
  for (auto& [original, cpu] : written) std::memcpy(original.data_ptr(), cpu.data_ptr(), cpu.nbytes());
  IValue* results = stack->data() + stack->size() - schema.returns.size();
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    if (!results[i].isTensor()) continue;
    std::optional<Tensor> original;
    for (auto& [orig, cpu] : written)
      if (results[i].toTensorRef().is_same(cpu)) original = orig;
    results[i] = IValue(original ? *original : copy_to(results[i].toTensorRef(), kPU1));
  }
}

// CPU kernels of the operators under test (float32, contiguous).
Tensor add_scaled_cpu(const Tensor& a, const Tensor& b, double alpha) {
  Tensor out = mt::empty(a.sizes());
  for (int64_t i = 0; i < a.numel(); ++i)
    out.data_ptr<float>()[i] = a.data_ptr<float>()[i] + static_cast<float>(alpha) * b.data_ptr<float>()[i];
  return out;
}
std::tuple<Tensor, Tensor> split_sign_cpu(const Tensor& a) {
  Tensor pos = mt::zeros(a.sizes()), neg = mt::zeros(a.sizes());
  for (int64_t i = 0; i < a.numel(); ++i) {
    const float v = a.data_ptr<float>()[i];
    (v > 0 ? pos : neg).data_ptr<float>()[i] = v;
  }
  return {pos, neg};
}
Tensor& fill_cpu(Tensor& self, double value) {
  for (int64_t i = 0; i < self.numel(); ++i) self.data_ptr<float>()[i] = static_cast<float>(value);
  return self;
}
double total_cpu(mt::ArrayRef<Tensor> xs) {
  double sum = 0;
  for (const Tensor& x : xs)
    for (int64_t i = 0; i < x.numel(); ++i) sum += x.data_ptr<float>()[i];
  return sum;
}

class PrivateUse1Backend : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    mt::set_allocator(mt::kPrivateUse1, &pu1_allocator);
    factories_.emplace(Library::IMPL, "mt", DispatchKey::PrivateUse1);
    factories_->impl("empty", [](mt::IntArrayRef size, std::optional<mt::ScalarType> dtype,
                                 std::optional<mt::Device> device) {
      return Tensor(mt::TensorImpl::empty(size, dtype.value_or(mt::kFloat32), *device));
    });
  }
  static void TearDownTestSuite() { factories_.reset(); }
  void SetUp() override {
    def_.def("add_scaled(Tensor a, Tensor b, float alpha) -> Tensor");
    def_.def("split_sign(Tensor a) -> (Tensor, Tensor)");
    def_.def("fill_(Tensor(a!) self, float value) -> Tensor(a!)");
    def_.def("total(Tensor[] xs) -> float");
    cpu_.impl("add_scaled", &add_scaled_cpu);
    cpu_.impl("split_sign", &split_sign_cpu);
    cpu_.impl("fill_", &fill_cpu);
    cpu_.impl("total", &total_cpu);
    fallback_calls.store(0);
  }
  void register_backend() {
    backend_.emplace(Library::IMPL, "_", DispatchKey::PrivateUse1);
    backend_->fallback(mt::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
  }
  void TearDown() override { backend_.reset(); }

  Library def_{Library::DEF, "t_pu1"};
  Library cpu_{Library::IMPL, "t_pu1", DispatchKey::CPU};
  std::optional<Library> backend_;
  static inline std::optional<Library> factories_;
};

}  // namespace

TEST_F(PrivateUse1Backend, TensorsLiveOnTheBackendWithItsKeys) {
  const int64_t before = live_allocations.load();
  {
    const Tensor t = pu1_tensor({1, 2, 3});
    EXPECT_EQ(t.device(), kPU1);
    EXPECT_EQ(live_allocations.load(), before + 1);
    EXPECT_EQ(t.key_set(), DispatchKeySet({DispatchKey::PrivateUse1, DispatchKey::ADInplaceOrView,
                                           DispatchKey::AutogradPrivateUse1}));
    EXPECT_EQ(values_of(t), (std::vector<float>{1, 2, 3}));
  }
  EXPECT_EQ(live_allocations.load(), before);  // freed through the allocator's deleter
}

TEST_F(PrivateUse1Backend, WithoutTheFallbackAnOperatorWithOnlyACPUKernelIsMissing) {
  const Tensor a = pu1_tensor({1}), b = pu1_tensor({2});
  const std::string m = mt_test::message_of<mt::NotImplementedError>(
      [&] { op_handle("t_pu1::add_scaled").typed<Tensor(const Tensor&, const Tensor&, double)>().call(a, b, 1.0); });
  EXPECT_TRUE(mt_test::starts_with(m, "Could not run 't_pu1::add_scaled' with arguments from the 'PrivateUse1' backend."))
      << m;
}

TEST_F(PrivateUse1Backend, FallbackRunsTheCPUKernelAndReturnsResultsOnTheBackend) {
  register_backend();
  const auto add_scaled = op_handle("t_pu1::add_scaled").typed<Tensor(const Tensor&, const Tensor&, double)>();
  const Tensor a = pu1_tensor({1, 2, 3}), b = pu1_tensor({10, 20, 30});
  const Tensor out = add_scaled.call(a, b, 0.5);
  EXPECT_EQ(out.device(), kPU1);
  EXPECT_EQ(out.sizes().vec(), (std::vector<int64_t>{3}));
  EXPECT_EQ(values_of(out), (std::vector<float>{6, 12, 18}));
  EXPECT_EQ(fallback_calls.load(), 1);
  // The inputs are unchanged, and CPU calls do not go through the backend.
  EXPECT_EQ(values_of(a), (std::vector<float>{1, 2, 3}));
  const Tensor cpu_out = add_scaled.call(mt::tensor({1.f}), mt::tensor({1.f}), 2.0);
  EXPECT_TRUE(cpu_out.is_cpu());
  EXPECT_EQ(cpu_out.data_ptr<float>()[0], 3.0f);
  EXPECT_EQ(fallback_calls.load(), 1);
}

TEST_F(PrivateUse1Backend, TupleResultsAndTensorListArgumentsGoThroughTheFallback) {
  register_backend();
  auto [pos, neg] = op_handle("t_pu1::split_sign").typed<std::tuple<Tensor, Tensor>(const Tensor&)>().call(
      pu1_tensor({-1, 2, -3, 4}));
  EXPECT_EQ(pos.device(), kPU1);
  EXPECT_EQ(neg.device(), kPU1);
  EXPECT_EQ(values_of(pos), (std::vector<float>{0, 2, 0, 4}));
  EXPECT_EQ(values_of(neg), (std::vector<float>{-1, 0, -3, 0}));
  const std::vector<Tensor> xs{pu1_tensor({1, 2, 3}), pu1_tensor({10, 20, 30})};
  EXPECT_EQ(op_handle("t_pu1::total").typed<double(mt::ArrayRef<Tensor>)>().call(xs), 66.0);
  // Boxed callers get the same.
  Stack s{IValue(pu1_tensor({5, -5}))};
  op_handle("t_pu1::split_sign").callBoxed(s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].toTensor().device(), kPU1);
  EXPECT_EQ(values_of(s[1].toTensor()), (std::vector<float>{0, -5}));
  EXPECT_EQ(fallback_calls.load(), 3);
}

TEST_F(PrivateUse1Backend, InPlaceOperatorsWriteBackIntoTheBackendTensor) {
  register_backend();
  Tensor t = pu1_tensor({0, 0, 0});
  Tensor& r = op_handle("t_pu1::fill_").typed<Tensor&(Tensor&, double)>().call(t, 7.0);
  EXPECT_EQ(&r, &t);
  EXPECT_EQ(values_of(t), (std::vector<float>{7, 7, 7}));
  // Boxed: the result is the caller's own PrivateUse1 tensor, not a copy.
  Stack s{IValue(t), IValue(1.5)};
  op_handle("t_pu1::fill_").callBoxed(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].toTensor().is_same(t));
  EXPECT_EQ(values_of(t), (std::vector<float>{1.5, 1.5, 1.5}));
}

TEST_F(PrivateUse1Backend, AKernelRegisteredAtPrivateUse1BeatsTheFallbackForItsOperator) {
  register_backend();
  Library own(Library::IMPL, "t_pu1", DispatchKey::PrivateUse1);
  own.impl("total", [](mt::ArrayRef<Tensor> xs) { return -static_cast<double>(xs.size()); });
  const std::vector<Tensor> xs{pu1_tensor({1}), pu1_tensor({2})};
  EXPECT_EQ(op_handle("t_pu1::total").typed<double(mt::ArrayRef<Tensor>)>().call(xs), -2.0);
  EXPECT_EQ(fallback_calls.load(), 0);
  EXPECT_EQ(mt_test::dump_rows(op_handle("t_pu1::total").dumpComputedTable(), {DispatchKey::PrivateUse1}),
            "PrivateUse1: [kernel]\n");
  EXPECT_EQ(mt_test::dump_rows(op_handle("t_pu1::add_scaled").dumpComputedTable(), {DispatchKey::PrivateUse1}),
            "PrivateUse1: [backend fallback]\n");
}
