#pragma once
// FunctionalTensorWrapper{value, level, storage, view steps, positions, generation}: a tensor inside
// mt::functionalize. Its value is a tensor of the level below that no one mutates: an in-place op on
// the wrapper computes a new value out of place and swaps it in.
//
// Aliasing: a wrapper and every view made from it share one FunctionalStorage, which holds the current
// value of the whole aliased memory (`base`) and a generation counter. A mutation through any of them
// writes the new values into `base` (put at the writer's positions) and bumps the generation; every
// other alias sees the generation move and regenerates its value from `base` (by replaying its view
// ops, or by taking its positions) before its next use.
//
// Positions: the row-major index, in `base`, of each element of the wrapper: the view ops replayed on
// an arange of the base's shape (laid out as the base's value; elements that share memory share a
// position). They locate a view's elements in
// `base` for put and take, and their geometry is the one the wrapper shows: the one it would have in
// eager mode, which autograd relies on to place a view's gradient in its base.
#include <cstdint>
#include <memory>
#include <vector>

#include "dispatch/Dispatcher.h"
#include "tensor/Tensor.h"

namespace mt::functorch {

struct FunctionalStorage {
  explicit FunctionalStorage(Tensor base) : base(std::move(base)) {}
  Tensor base;              // a tensor of the level below
  uint64_t generation = 0;  // the number of mutations committed so far
};

// A view op with its arguments, to be replayed on another tensor (argument 0 is left empty).
struct ViewStep {
  OperatorHandle op;
  Stack args;
};

class FunctionalTensorWrapper : public TensorImpl {
 public:
  // A new base: `value` owns its aliased memory (an input, or the result of a functional op).
  FunctionalTensorWrapper(Tensor value, int64_t level, bool reapply_views, std::shared_ptr<const bool> alive);
  // A view of `parent`: `value` is the view's value, `step` the view op that made it from the parent.
  FunctionalTensorWrapper(const FunctionalTensorWrapper& parent, Tensor value, ViewStep step, Tensor positions);

  const Tensor& value() const { return value_; }
  int64_t level() const { return level_; }
  bool is_alive() const { return *alive_; }
  bool is_view() const { return !view_steps_.empty(); }
  // True for remove=mutations (views stay views), false for remove=mutations_and_views.
  bool reapply_views() const { return reapply_views_; }
  const std::shared_ptr<FunctionalStorage>& storage() const { return storage_; }
  const std::vector<ViewStep>& view_steps() const { return view_steps_; }
  // int64 positions of this wrapper's elements in the base, with the geometry eager mode would give it.
  const Tensor& positions() const { return positions_; }

  bool is_up_to_date() const { return generation_ == storage_->generation; }
  // Regenerates the value from the storage's base if another alias mutated it since.
  void sync();
  // An in-place or out= op computed `new_value` for this wrapper: swap it in and write it through to
  // the base, which every alias then regenerates from.
  void commit(Tensor new_value);
  // An out= op gave this base wrapper a value of another shape: it now owns new memory, as after an
  // eager resize_ (views made before keep the old storage).
  void replace_storage(Tensor new_value);

  const TensorImpl& data_holder() override;
  std::optional<WrapperRepr> wrapper_repr() const override;
  const void* alias_group() const override { return storage_.get(); }

 private:
  void set_value(Tensor value);

  Tensor value_;
  int64_t level_;
  bool reapply_views_;
  std::shared_ptr<const bool> alive_;
  std::shared_ptr<FunctionalStorage> storage_;
  std::vector<ViewStep> view_steps_;
  Tensor positions_;
  // A base that is not dense (an expanded or stepped input) reads its value through its positions, as
  // views do, so that a write through a view reaches every element that shares its memory.
  bool reads_through_positions_ = false;
  uint64_t generation_;
};

// The FunctionalTensorWrapper behind `t`, or nullptr when `t` is not one.
FunctionalTensorWrapper* maybe_get_functional(const Tensor& t);
// `t`'s wrapper when it is a live one at `level`, else nullptr.
FunctionalTensorWrapper* functional_at_level(const Tensor& t, int64_t level);

Tensor make_functional_tensor(Tensor value, int64_t level, bool reapply_views, std::shared_ptr<const bool> alive);

// Runs a view step on `self`. On a plain tensor with `backend_only`, the step runs in the backend's
// kernel directly: no layer (and no dispatch mode) sees it, as for positions, which are bookkeeping.
Tensor replay_view(const ViewStep& step, const Tensor& self, bool backend_only = false);

}  // namespace mt::functorch
