// Ops that write a tensor refuse, as PyTorch does, outputs whose elements share memory (an expanded
// tensor) and inputs that share memory with the output at other positions: the result would depend on
// the order of the loop. Refused ops leave their output untouched. Operands that are the same elements, or
// apart, are fine, and fill_ / zero_ may write an expanded tensor (every element gets the same value).
// scatter_ reads its src and index away from the positions it writes, so they may not share self's
// memory at all.
#include <functional>
#include <string>
#include <vector>

#include "reference.h"
#include "ops/api/add.h"
#include "ops/api/arange.h"
#include "ops/api/full.h"
#include "ops/api/mul.h"
#include "ops/api/ones.h"
#include "ops/api/where.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;

const std::string kInternal =
    "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
    "Please clone() the tensor before performing the operation.";
const std::string kPartial =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
    "location. Please clone() the tensor before performing the operation.";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.msg();
  }
  return "no error";
}

TEST(MemoryOverlap, AnExpandedOutputIsRefusedAndLeftAlone) {
  const Tensor base = mt::tensor({1.0, 2.0, 3.0});
  const std::vector<std::pair<const char*, std::function<void(Tensor&)>>> writes{
      {"add_", [](Tensor& e) { e.add_(1); }},
      {"mul_", [](Tensor& e) { e.mul_(mt::ones({2, 3})); }},
      {"relu_", [](Tensor& e) { e.relu_(); }},
      {"clamp_", [](Tensor& e) { e.clamp_(0, 1); }},
      {"copy_", [](Tensor& e) { e.copy_(mt::ones({2, 3})); }},
      {"masked_fill_", [](Tensor& e) { e.masked_fill_(mt::ones({2, 3}).gt(0), 2); }},
      {"add out=", [](Tensor& e) { mt::add_out(e, mt::ones({2, 3}), mt::ones({2, 3})); }},
      {"tril_", [](Tensor& e) { e.tril_(); }},
      {"triu_", [](Tensor& e) { e.triu_(1); }},
  };
  for (const auto& [name, write] : writes) {
    SCOPED_TRACE(name);
    Tensor b = base.clone();
    Tensor expanded = b.expand({2, 3});
    EXPECT_EQ(error_of([&] { write(expanded); }), kInternal);
    EXPECT_EQ(values(b), (std::vector<double>{1, 2, 3}));
  }
}

// As in PyTorch: an expanded tensor with no elements writes nothing, and copying a tensor into itself
// does nothing, so neither is refused.
TEST(MemoryOverlap, NothingWrittenIsNoOverlap) {
  Tensor empty_base = mt::zeros({0, 1});
  Tensor expanded_empty = empty_base.expand({0, 4});
  expanded_empty.add_(1);
  expanded_empty.tril_();
  EXPECT_EQ(expanded_empty.sizes(), IntArrayRef({0, 4}));
  Tensor b = mt::tensor({1.0, 2.0, 3.0});
  Tensor e = b.expand({2, 3});
  e.copy_(e);
  EXPECT_EQ(values(b), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(error_of([&] { e.copy_(b.expand({2, 3})); }), kInternal);  // another tensor: refused as before
}

TEST(MemoryOverlap, FillMayWriteAnExpandedTensor) {
  Tensor b = mt::tensor({1.0, 2.0, 3.0});
  b.expand({2, 3}).fill_(7);
  EXPECT_EQ(values(b), (std::vector<double>{7, 7, 7}));
  b.expand({4, 3}).zero_();
  EXPECT_EQ(values(b), (std::vector<double>{0, 0, 0}));
}

TEST(MemoryOverlap, AnInputOverlappingTheOutputElsewhereIsRefusedAndLeftAlone) {
  const std::vector<std::pair<const char*, std::function<void(Tensor&)>>> writes{
      // Same memory range, other order.
      {"mul_ of the transpose", [](Tensor& y) { Tensor v = y.view({2, 2}); v.mul_(v.t()); }},
      // Shifted by one element: contiguous operands of one shape (the iterator's fast path).
      {"add_ of a shifted slice", [](Tensor& y) { y.slice(0, 0, 3).add_(y.slice(0, 1, 4)); }},
      {"copy_ of a shifted slice", [](Tensor& y) { y.slice(0, 0, 2).copy_(y.slice(0, 1, 3)); }},
      {"add out= into a shifted slice",
       [](Tensor& y) {
         Tensor out = y.slice(0, 1, 4);
         mt::add_out(out, y.slice(0, 0, 3), mt::ones({3}));
       }},
      {"where with a shifted input", [](Tensor& y) {
         Tensor out = y.slice(0, 0, 3);
         mt::where_out(out, mt::ones({3}).gt(0), y.slice(0, 1, 4), mt::zeros({3}));
       }},
  };
  for (const auto& [name, write] : writes) {
    SCOPED_TRACE(name);
    Tensor y = mt::tensor({1.0, 2.0, 3.0, 4.0});
    EXPECT_EQ(error_of([&] { write(y); }), kPartial);
    EXPECT_EQ(values(y), (std::vector<double>{1, 2, 3, 4}));
  }
}

TEST(MemoryOverlap, TheSameElementsOrDisjointOnesAreFine) {
  Tensor y = mt::tensor({1.0, 2.0, 3.0, 4.0});
  y.mul_(y);  // the same tensor
  EXPECT_EQ(values(y), (std::vector<double>{1, 4, 9, 16}));
  y.view({4}).add_(y.view({2, 2}).reshape({4}));  // other tensors, the same elements in the same order
  EXPECT_EQ(values(y), (std::vector<double>{2, 8, 18, 32}));
  y.slice(0, 0, 2).sub_(y.slice(0, 2, 4));  // apart
  EXPECT_EQ(values(y), (std::vector<double>{-16, -24, 18, 32}));
  Tensor out = y.slice(0, 2, 4);
  mt::mul_out(out, y.slice(0, 0, 2), mt::full({2}, 0.5));
  EXPECT_EQ(values(y), (std::vector<double>{-16, -24, -8, -12}));
  // A strided input over the same storage that no element of the output shares.
  Tensor z = mt::arange(6).to(kFloat64);
  z.slice(0, 0, 6, 2).add_(z.slice(0, 1, 6, 2));
  EXPECT_EQ(values(z), (std::vector<double>{1, 1, 5, 3, 9, 5}));
}

TEST(MemoryOverlap, ScatterInPlaceSharesNoMemoryWithItsSourceOrIndex) {
  const Tensor index = mt::tensor(std::vector<int64_t>{1, 2, 3});
  const std::vector<std::pair<const char*, std::function<void(Tensor&)>>> writes{
      {"scatter_ from a slice of self", [&](Tensor& y) { y.scatter_(0, index, y.slice(0, 0, 3)); }},
      {"scatter_add_ from self itself", [&](Tensor& y) { y.scatter_add_(0, index, y); }},
  };
  for (const auto& [name, write] : writes) {
    SCOPED_TRACE(name);
    Tensor y = mt::tensor({1.0, 2.0, 3.0, 4.0});
    EXPECT_EQ(error_of([&] { write(y); }), kPartial);
    EXPECT_EQ(values(y), (std::vector<double>{1, 2, 3, 4}));
  }
  Tensor as_int = mt::tensor(std::vector<int64_t>{0, 1, 2});
  EXPECT_EQ(error_of([&] { as_int.scatter_(0, as_int, 5); }), kPartial);  // the index is self
  Tensor b = mt::tensor({1.0, 2.0});
  Tensor expanded = b.expand({3, 2});
  EXPECT_EQ(error_of([&] { expanded.scatter_(0, mt::zeros({1, 2}, kInt64), 9); }), kInternal);
  EXPECT_EQ(values(b), (std::vector<double>{1, 2}));
  // A source apart from self's memory (another part of its base) is fine.
  Tensor base = mt::tensor({0.0, 0.0, 0.0, 5.0, 6.0, 7.0});
  base.slice(0, 0, 3).scatter_(0, mt::tensor(std::vector<int64_t>{2, 0, 1}), base.slice(0, 3, 6));
  EXPECT_EQ(values(base), (std::vector<double>{6, 7, 5, 5, 6, 7}));
}

}  // namespace
