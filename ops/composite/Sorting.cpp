// The sorting and selection ops other than sort.stable, as compositions of it: sort, argsort and msort
// pick from its results; topk narrows them; kthvalue, median and nanmedian gather one position per row
// from them. Every layer handles these through sort (its derivative sends the gradient back through the
// indices), except median() and nanmedian() of all elements, which PyTorch differentiates by sharing the
// gradient among the elements equal to the result (autograd/derivatives/Sorting.cpp). A full sort makes
// topk O(n log n) rather than O(n), which the radix sort keeps cheap.
#include <limits>
#include <tuple>

#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/argsort.h"
#include "ops/api/full.h"
#include "ops/api/median.h"
#include "ops/api/nanmedian.h"
#include "ops/api/sort.h"
#include "ops/api/where.h"
#include "ops/TensorOperators.h"

namespace mt {
namespace {

std::tuple<Tensor, Tensor> sort_default(const Tensor& self, int64_t dim, bool descending) {
  return mt::sort(self, std::optional<bool>(false), dim, descending);
}
Tensor argsort_default(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(mt::sort(self, std::optional<bool>(false), dim, descending));
}
Tensor argsort_stable(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(mt::sort(self, std::optional<bool>(stable), dim, descending));
}
Tensor msort_default(const Tensor& self) { return std::get<0>(mt::sort(self, std::optional<bool>(false), 0, false)); }

// The length of the dim a 0-dim tensor's dim 0 or -1 names.
int64_t size_along(const Tensor& self, int64_t dim) { return self.dim() == 0 ? 1 : self.size(dim); }

void check_not_bool(const Tensor& self, const char* name) {
  MT_CHECK_NOT_IMPLEMENTED(self.dtype() != kBool, '"', name, "\" not implemented for '", self.dtype(), "'");
}

void check_nonempty_dim(const Tensor& self, int64_t dim, const char* name) {
  MT_CHECK_INDEX(size_along(self, dim) != 0, name, "(): Expected reduction dim ", dim, " to have non-zero size.");
}

std::tuple<Tensor, Tensor> topk_default(const Tensor& self, int64_t k, int64_t dim, bool largest, bool) {
  MT_CHECK_NOT_IMPLEMENTED(self.dtype() != kBool, "topk does not support bool dtypes");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  MT_CHECK(k >= 0 && k <= size_along(self, d), "selected index k out of range");
  auto [values, indices] = mt::sort(self, std::optional<bool>(true), d, largest);
  if (self.dim() == 0) return {values, indices};
  return {values.narrow(d, 0, k).contiguous(), indices.narrow(d, 0, k).contiguous()};
}

// The sorted values and indices at one position per row: `position` has the results' shape with dim kept.
std::tuple<Tensor, Tensor> pick(const std::tuple<Tensor, Tensor>& sorted, int64_t dim, const Tensor& position,
                                bool keepdim) {
  Tensor values = std::get<0>(sorted).gather(dim, position);
  Tensor indices = std::get<1>(sorted).gather(dim, position);
  if (keepdim) return {values, indices};
  return {values.squeeze(dim), indices.squeeze(dim)};
}

// The shape of one position per row, filled with `position`.
Tensor same_position(const Tensor& rows, int64_t dim, int64_t position) {
  std::vector<int64_t> shape = rows.sizes().vec();
  shape[dim] = 1;
  return full(shape, position, TensorOptions().dtype(kInt64).device(rows.device()));
}

// The ascending sort's element at position_of(rows, dim) in each row. A 0-dim tensor selects along a dim of
// one element: it is computed as a vector, and its results are 0-dim.
template <typename PositionOf>
std::tuple<Tensor, Tensor> select_per_row(const Tensor& self, int64_t dim, bool keepdim, const char* name,
                                          PositionOf position_of) {
  check_not_bool(self, name);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_nonempty_dim(self, d, name);
  const Tensor rows = self.dim() == 0 ? self.reshape({1}) : self;
  const Tensor position = position_of(rows, d);
  return pick(mt::sort(rows, std::optional<bool>(true), d, false), d, position, keepdim && self.dim() != 0);
}

std::tuple<Tensor, Tensor> kthvalue_default(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  return select_per_row(self, dim, keepdim, "kthvalue", [k](const Tensor& rows, int64_t d) {
    MT_CHECK(k >= 1 && k <= rows.size(d), "kthvalue(): selected number k out of range for dimension ", d);
    return same_position(rows, d, k - 1);
  });
}

// NaN sorts last. median's result is NaN where a row holds one (the first NaN, in the stable order); nanmedian
// takes the lower median of the other elements (and the first NaN of a row of NaNs).
Tensor median_position(const Tensor& rows, int64_t dim) {
  const int64_t n = rows.size(dim);
  if (!rows.is_floating_point()) return same_position(rows, dim, (n - 1) / 2);
  const Tensor nans = rows.isnan().sum({dim}, /*keepdim=*/true);
  return mt::where(nans > 0, n - nans, (n - 1) / 2);
}
Tensor nanmedian_position(const Tensor& rows, int64_t dim) {
  const int64_t n = rows.size(dim);
  if (!rows.is_floating_point()) return same_position(rows, dim, (n - 1) / 2);
  const Tensor numbers = n - rows.isnan().sum({dim}, /*keepdim=*/true);
  return mt::where(numbers > 0, (numbers - 1) >> 1, 0);
}

std::tuple<Tensor, Tensor> median_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return select_per_row(self, dim, keepdim, "median", &median_position);
}
std::tuple<Tensor, Tensor> nanmedian_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return select_per_row(self, dim, keepdim, "nanmedian", &nanmedian_position);
}

// Of no elements, the median of floats is NaN, as in PyTorch; integers have no NaN to give.
Tensor median_of_all(const Tensor& self, const char* name,
                     std::tuple<Tensor, Tensor> (*per_row)(const Tensor&, int64_t, bool)) {
  check_not_bool(self, name);
  if (self.numel() == 0) {
    MT_CHECK(self.is_floating_point(), name, "(): cannot compute the median of an empty tensor of dtype ",
             self.dtype(), ", which has no NaN");
    return full({}, std::numeric_limits<double>::quiet_NaN(), self.options());
  }
  return std::get<0>(per_row(self.reshape({-1}), 0, false));
}
Tensor median_all(const Tensor& self) { return median_of_all(self, "median", &median_dim); }
Tensor nanmedian_all(const Tensor& self) { return median_of_all(self, "nanmedian", &nanmedian_dim); }

void register_composites(Library& m) {
  m.impl("sort", MT_FN(sort_default));
  m.impl("argsort", MT_FN(argsort_default));
  m.impl("argsort.stable", MT_FN(argsort_stable));
  m.impl("msort", MT_FN(msort_default));
  m.impl("topk", MT_FN(topk_default));
  m.impl("kthvalue", MT_FN(kthvalue_default));
  m.impl("median.dim", MT_FN(median_dim));
  m.impl("nanmedian.dim", MT_FN(nanmedian_dim));
}

}  // namespace

MT_LIBRARY_IMPL(mt, CompositeImplicitAutograd, m) { register_composites(m); }
// median() and nanmedian() have their own derivative and batching rule, so they sit below the autograd layer.
MT_LIBRARY_IMPL(mt, CompositeExplicitAutograd, m) {
  m.impl("median", MT_FN(median_all));
  m.impl("nanmedian", MT_FN(nanmedian_all));
}

}  // namespace mt
