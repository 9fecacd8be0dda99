#pragma once
// The public C++ type of an `int[]?` argument (PyTorch's at::OptionalIntArrayRef): no list, or a
// non-owning view of one. std::optional<IntArrayRef> cannot be used there: `sum(t, {1})` and `sum(t, 1)`
// build its IntArrayRef inside optional's constructor around an int64_t temporary that dies before the
// call, and `sum(t, {0, 1})` does not compile. Every constructor here takes its source by reference
// from the caller, so the list lives until the end of the caller's full expression.
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <type_traits>

#include "tensor/ArrayRef.h"

namespace mt {

class OptionalIntArrayRef {
 public:
  constexpr OptionalIntArrayRef() = default;
  constexpr OptionalIntArrayRef(std::nullopt_t) {}
  // One dim, as PyTorch's `int[1]` accepts `dim=1`.
  constexpr OptionalIntArrayRef(const int64_t& one) : ref_(IntArrayRef(one)) {}
  // `true` would silently mean dim 1.
  template <typename B>
    requires std::same_as<B, bool>
  OptionalIntArrayRef(B) = delete;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  constexpr OptionalIntArrayRef(std::initializer_list<int64_t> list) : ref_(IntArrayRef(list.begin(), list.size())) {}
#pragma GCC diagnostic pop
  // IntArrayRef, std::vector<int64_t>, std::array<int64_t, N>, ...
  template <typename C>
    requires(!std::is_arithmetic_v<C> && std::is_convertible_v<const C&, IntArrayRef>)
  constexpr OptionalIntArrayRef(const C& list) : ref_(IntArrayRef(list)) {}
  constexpr OptionalIntArrayRef(const std::optional<IntArrayRef>& ref) : ref_(ref) {}

  constexpr bool has_value() const { return ref_.has_value(); }
  constexpr explicit operator bool() const { return has_value(); }
  constexpr IntArrayRef value() const { return ref_.value(); }
  constexpr IntArrayRef operator*() const { return *ref_; }
  constexpr const IntArrayRef* operator->() const { return &*ref_; }
  // The dispatcher's type for `int[]?` (kernels take std::optional<IntArrayRef>).
  constexpr operator std::optional<IntArrayRef>() const { return ref_; }

 private:
  std::optional<IntArrayRef> ref_;
};

}  // namespace mt
