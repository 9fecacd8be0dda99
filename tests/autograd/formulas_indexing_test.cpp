// The derivatives of cat, stack, repeat, index_select, gather, scatter (src, value, add; out of place and
// in place), take, put and tril/triu against finite differences (first and second order), with
// hand-worked gradients for repeated indices.
#include "formulas_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/cat.h"
#include "ops/api/ones.h"
#include "ops/api/stack.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt::autograd::variable_list;
using mt_test::check;
using mt_test::longs;
using mt_test::rnd;
using mt_test::values;

TEST(IndexingFormulas, CatStackRepeat) {
  const variable_list in{rnd({2, 3}, 1), rnd({2, 1}, 2), rnd({2, 2}, 3)};
  check([](const variable_list& x) { return mt::cat({x[0], x[1], x[2]}, 1); }, in);
  check([](const variable_list& x) { return mt::cat({x[0].t(), x[2].t()}, -2) * 3.0; }, in);
  // A legacy 1-D empty input is skipped by cat and gets no gradient.
  check([](const variable_list& x) { return mt::cat({x[0], mt::zeros({0}, mt::kFloat64), x[0]}, 0); }, in);
  check([](const variable_list& x) { return mt::stack({x[0], x[0] * x[0]}, -1); }, in);
  check([](const variable_list& x) { return x[1].repeat({2, 1, 3}); }, in);
  const Tensor a = rnd({2}, 4), b = rnd({3}, 5);
  const Tensor out = mt::cat({a, b});
  EXPECT_EQ(out.grad_fn()->name(), "CatBackward0");
  const auto g = mt::autograd::grad({out}, {a, b}, {mt::arange(5, mt::kFloat64)});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 1}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{2, 3, 4}));
}

TEST(IndexingFormulas, CatWithInputsThatDoNotRequireGrad) {
  const Tensor a = rnd({2}, 6);
  const Tensor c = mt::ones({2}, mt::kFloat64);
  const auto g = mt::autograd::grad({(mt::cat({c, a}) * mt::arange(4, mt::kFloat64)).sum()}, {a});
  EXPECT_EQ(values(g[0]), (std::vector<double>{2, 3}));
}

TEST(IndexingFormulas, IndexSelectAndGatherAccumulateRepeatedIndices) {
  const variable_list in{rnd({4, 3}, 7)};
  check([](const variable_list& x) { return x[0].index_select(0, longs({3, 0, 3, 1})); }, in);
  check([](const variable_list& x) { return x[0].index_select(-1, longs({2, 2})) * x[0].index_select(-1, longs({0, 1})); }, in);
  check([](const variable_list& x) { return x[0].t().index_select(1, longs({1, 0})); }, in);
  check([](const variable_list& x) { return x[0].gather(1, longs({0, 0, 2, 1, 1, 1}, {2, 3})); }, in);
  check([](const variable_list& x) { return x[0].gather(0, longs({3, 3, 0}, {1, 3})); }, in);
  const Tensor x = rnd({3}, 8);
  EXPECT_EQ(values(mt::autograd::grad({x.index_select(0, longs({2, 0, 2})).sum()}, {x})[0]), (std::vector<double>{1, 0, 2}));
  EXPECT_EQ(values(mt::autograd::grad({x.gather(0, longs({1, 1, 1, 0})).sum()}, {x})[0]), (std::vector<double>{1, 3, 0}));
  EXPECT_EQ(x.index_select(0, longs({0})).grad_fn()->name(), "IndexSelectBackward0");
  EXPECT_EQ(x.gather(0, longs({0})).grad_fn()->name(), "GatherBackward0");
}

TEST(IndexingFormulas, Scatter) {
  const Tensor index = longs({2, 0, 1, 0, 1, 2}, {2, 3});  // a permutation per column-slice: no collisions
  const variable_list in{rnd({3, 3}, 9), rnd({2, 4}, 10)};   // src larger than index
  check([index](const variable_list& x) { return x[0].scatter(0, index, x[1]); }, in);
  check([index](const variable_list& x) { return x[0].scatter(0, index, 2.5); }, in);
  check([index](const variable_list& x) { return x[0].scatter_add(0, index, x[1]); }, in);
  check([](const variable_list& x) { return x[0].scatter_add(-1, longs({0, 0, 0, 2}, {2, 2}), x[1]); }, in);
  check([index](const variable_list& x) { return (x[0] * 1.0).scatter_(0, index, x[1]); }, in);
  check([index](const variable_list& x) { return (x[0] * 1.0).scatter_(0, index, -1.0); }, in);
  check([index](const variable_list& x) { return (x[0] * 1.0).scatter_add_(0, index, x[1]); }, in);
  // Hand-worked: scatter overwrites self where it writes, so self gets no gradient there; src's unread
  // column gets none.
  const Tensor self = rnd({3}, 11), src = rnd({3}, 12);
  const auto g = mt::autograd::grad({self.scatter(0, longs({2, 0}), src).sum()}, {self, src});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(self.scatter(0, longs({0}), src).grad_fn()->name(), "ScatterBackward0");
  EXPECT_EQ(self.scatter(0, longs({0}), 1.0).grad_fn()->name(), "ScatterBackward1");
  EXPECT_EQ(self.scatter_add(0, longs({0}), src).grad_fn()->name(), "ScatterAddBackward0");
}

TEST(IndexingFormulas, TakeAndPut) {
  const variable_list in{rnd({3, 4}, 15), rnd({2, 3}, 16)};
  const Tensor repeats = longs({5, -1, 0, 5, 11, 2}, {2, 3});   // 5 twice, 11 as -1 and 11
  const Tensor distinct = longs({5, -1, 0, 7, 3, 2}, {2, 3});
  check([repeats](const variable_list& x) { return x[0].take(repeats); }, in);
  check([](const variable_list& x) { return x[0].t().take(longs({1, -2, 1})) * x[1].take(longs({0, 4, 5})); }, in);
  check([distinct](const variable_list& x) { return x[0].put(distinct, x[1]); }, in);
  check([repeats](const variable_list& x) { return x[0].put(repeats, x[1], /*accumulate=*/true); }, in);
  check([](const variable_list& x) { return x[0].t().put(longs({7, -12}), x[1].take(longs({0, 4})) * x[1][0][1]); },
        in);
  // Hand-worked: take's gradient counts each read; put overwrites self where it writes (unless it
  // accumulates), and source gets the gradient of where it went.
  const Tensor v = rnd({4}, 17);
  EXPECT_EQ(values(mt::autograd::grad({v.take(longs({1, 1, -1, 0})).sum()}, {v})[0]),
            (std::vector<double>{1, 2, 0, 1}));
  const Tensor self = rnd({4}, 18), src = rnd({2}, 19), weights = mt::arange(4, mt::kFloat64);
  const auto g = mt::autograd::grad({(self.put(longs({2, -4}), src) * weights).sum()}, {self, src});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 1, 0, 3}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{2, 0}));
  const auto ga = mt::autograd::grad({(self.put(longs({2, 2}), src, true) * weights).sum()}, {self, src});
  EXPECT_EQ(values(ga[0]), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(values(ga[1]), (std::vector<double>{2, 2}));
  EXPECT_EQ(v.take(longs({0})).grad_fn()->name(), "TakeBackward0");
  EXPECT_EQ(self.put(longs({0}), src.narrow(0, 0, 1)).grad_fn()->name(), "PutBackward0");
}

TEST(IndexingFormulas, TrilTriu) {
  const variable_list in{rnd({2, 3, 4}, 13)};
  for (int64_t k : {-1, 0, 2}) {
    check([k](const variable_list& x) { return x[0].tril(k); }, in);
    check([k](const variable_list& x) { return x[0].triu(k); }, in);
    check([k](const variable_list& x) { return (x[0] * 1.0).tril_(k); }, in);
    check([k](const variable_list& x) { return (x[0] * 1.0).triu_(k); }, in);
  }
  const Tensor m = rnd({2, 2}, 14);
  EXPECT_EQ(values(mt::autograd::grad({m.triu().sum()}, {m})[0]), (std::vector<double>{1, 1, 0, 1}));
}

}  // namespace
