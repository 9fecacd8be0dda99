// IValue: the 16-byte boxed value of the dispatcher's boxed calling convention.
#include "dispatch/IValue.h"
#include "dispatch/MapTensors.h"

#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dispatch_test_helpers.h"
#include "ops/api/full.h"
#include "ops/api/ones.h"
#include "ops/api/stack.h"
#include "ops/api/std.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"

using mt::IValue;
using Tag = mt::IValue::Tag;

namespace {
std::string printed(const IValue& v) {
  std::ostringstream ss;
  ss << v;
  return ss.str();
}
}  // namespace

TEST(IValueLayout, IsSixteenBytes) {
  EXPECT_EQ(sizeof(IValue), 16u);
  EXPECT_EQ(sizeof(mt::Tensor), 8u);  // a Tensor fits the payload: one pointer
}

TEST(IValueTags, NoneFromDefaultNulloptAndEmptyOptional) {
  EXPECT_EQ(IValue().tag(), Tag::None);
  EXPECT_TRUE(IValue(std::nullopt).isNone());
  EXPECT_TRUE(IValue(std::optional<int64_t>()).isNone());
  EXPECT_TRUE(IValue(std::optional<mt::Tensor>()).isNone());
  EXPECT_EQ(IValue().tagName(), "None");
  EXPECT_EQ(printed(IValue()), "None");
  // An undefined tensor boxes to None, like an absent Tensor? argument.
  EXPECT_TRUE(IValue(mt::Tensor()).isNone());
  EXPECT_FALSE(IValue().toOptionalTensor().has_value());
  EXPECT_EQ(IValue().to<std::optional<int64_t>>(), std::nullopt);
}

TEST(IValueTags, OptionalWithValueBoxesTheValue) {
  const IValue v(std::optional<int64_t>(7));
  EXPECT_TRUE(v.isInt());
  EXPECT_EQ(v.to<std::optional<int64_t>>(), std::optional<int64_t>(7));
  const mt::Tensor t = mt::ones({2});
  const IValue vt{std::optional<mt::Tensor>(t)};
  ASSERT_TRUE(vt.toOptionalTensor().has_value());
  EXPECT_TRUE(vt.toOptionalTensor()->is_same(t));
}

TEST(IValueTags, ScalarsRoundTrip) {
  EXPECT_TRUE(IValue(true).isBool());
  EXPECT_EQ(IValue(true).toBool(), true);
  EXPECT_EQ(IValue(false).toBool(), false);
  EXPECT_TRUE(IValue(int64_t(-5)).isInt());
  EXPECT_EQ(IValue(int64_t(-5)).toInt(), -5);
  EXPECT_TRUE(IValue(int32_t(7)).isInt());  // every integral type is an Int
  EXPECT_EQ(IValue(int32_t(7)).to<int32_t>(), 7);
  EXPECT_EQ(IValue(int64_t(1) << 40).toInt(), int64_t(1) << 40);
  EXPECT_TRUE(IValue(2.5).isDouble());
  EXPECT_EQ(IValue(2.5).toDouble(), 2.5);
  EXPECT_EQ(IValue(int64_t(3)).toDouble(), 3.0);  // an int is accepted as a float, as in Python
  EXPECT_TRUE(IValue(2.5).isScalar());
  EXPECT_TRUE(IValue(true).isScalar());
  EXPECT_FALSE(IValue("x").isScalar());
  EXPECT_EQ(printed(IValue(int64_t(3))), "3");
  EXPECT_EQ(printed(IValue(true)), "True");
  EXPECT_EQ(printed(IValue(2.5)), "2.5");
}

TEST(IValueTags, ScalarIsStoredAsTheNumberItHolds) {
  const IValue d{mt::Scalar(1.5)};
  EXPECT_EQ(d.tag(), Tag::Double);
  EXPECT_EQ(d.toDouble(), 1.5);
  const IValue i{mt::Scalar(int64_t(4))};
  EXPECT_EQ(i.tag(), Tag::Int);
  EXPECT_EQ(i.toInt(), 4);
  const IValue b{mt::Scalar(true)};
  EXPECT_EQ(b.tag(), Tag::Bool);
  // ... and converts back to a Scalar of the same kind.
  EXPECT_TRUE(d.toScalar().isFloatingPoint());
  EXPECT_EQ(d.toScalar().toDouble(), 1.5);
  EXPECT_TRUE(i.toScalar().isIntegral(false));
  EXPECT_EQ(i.to<mt::Scalar>().toLong(), 4);
  EXPECT_TRUE(b.toScalar().isBoolean());
}

TEST(IValueTags, StringsAndListsRoundTrip) {
  const IValue s("hello");
  EXPECT_TRUE(s.isString());
  EXPECT_EQ(s.toStringRef(), "hello");
  EXPECT_EQ(s.to<std::string_view>(), "hello");
  EXPECT_EQ(IValue(std::string_view("sv")).toStringRef(), "sv");
  EXPECT_EQ(printed(s), "\"hello\"");

  const IValue il(std::vector<int64_t>{2, 3});
  EXPECT_TRUE(il.isIntList());
  EXPECT_EQ(il.toIntList(), (std::vector<int64_t>{2, 3}));
  const std::vector<int64_t> sizes{4, 5, 6};
  EXPECT_EQ(IValue(mt::IntArrayRef(sizes)).toIntList(), sizes);
  EXPECT_EQ(printed(il), "[2, 3]");

  const IValue dl(std::vector<double>{0.5, 1.5});
  EXPECT_TRUE(dl.isDoubleList());
  EXPECT_EQ(dl.toDoubleList(), (std::vector<double>{0.5, 1.5}));

  const mt::Tensor a = mt::ones({1}), b = mt::zeros({2});
  const IValue tl(std::vector<mt::Tensor>{a, b});
  EXPECT_TRUE(tl.isTensorList());
  ASSERT_EQ(tl.toTensorList().size(), 2u);
  EXPECT_TRUE(tl.toTensorList()[0].is_same(a));
  EXPECT_TRUE(tl.toTensorList()[1].is_same(b));
  EXPECT_EQ(printed(tl), "[2 tensors]");
}

TEST(IValueTags, DeviceScalarTypeAndTensorRoundTrip) {
  const IValue d(mt::Device(mt::kCUDA, 1));
  EXPECT_TRUE(d.isDevice());
  EXPECT_EQ(d.toDevice(), mt::Device(mt::kCUDA, 1));
  EXPECT_EQ(IValue(mt::Device("meta")).toDevice(), mt::Device(mt::kMeta));
  EXPECT_EQ(printed(d), "cuda:1");
  const IValue st(mt::kFloat64);
  EXPECT_TRUE(st.isScalarType());
  EXPECT_EQ(st.toScalarType(), mt::kFloat64);
  const mt::Tensor t = mt::ones({3});
  const IValue vt(t);
  EXPECT_TRUE(vt.isTensor());
  EXPECT_EQ(vt.tagName(), "Tensor");
  EXPECT_TRUE(vt.toTensor().is_same(t));
  EXPECT_TRUE(vt.toTensorRef().is_same(t));
  EXPECT_EQ(vt.unsafeToTensorImpl(), t.unsafeGetTensorImpl());
}

TEST(IValueTags, GeneratorIsHeldByPointerAndNullptrIsNone) {
  mt::Generator g(7);
  const IValue v(&g);
  EXPECT_TRUE(v.isGenerator());
  EXPECT_EQ(v.tagName(), "Generator");
  EXPECT_EQ(v.toGenerator(), &g);
  EXPECT_EQ(v.to<mt::Generator*>(), &g);
  EXPECT_EQ(printed(v), "Generator(seed=7)");
  EXPECT_EQ(IValue(v), v);
  const IValue none(static_cast<mt::Generator*>(nullptr));
  EXPECT_TRUE(none.isNone());
  EXPECT_EQ(none.toGenerator(), nullptr);
  EXPECT_THROW(IValue(int64_t(1)).toGenerator(), mt::TypeError);
}

TEST(IValueEquality, ValuesByValueTensorsByIdentity) {
  EXPECT_EQ(IValue(int64_t(3)), IValue(int64_t(3)));
  EXPECT_FALSE(IValue(int64_t(3)) == IValue(3.0));  // different tags
  EXPECT_EQ(IValue("a"), IValue(std::string("a")));
  EXPECT_FALSE(IValue("a") == IValue("b"));
  EXPECT_EQ(IValue(std::vector<int64_t>{1, 2}), IValue(std::vector<int64_t>{1, 2}));
  EXPECT_EQ(IValue(), IValue());
  const mt::Tensor t = mt::ones({1});
  EXPECT_EQ(IValue(t), IValue(t));
  EXPECT_FALSE(IValue(t) == IValue(mt::ones({1})));
}

TEST(IValueRefcount, CopyingATensorIValueAddsOneReferenceAndMovingAddsNone) {
  mt::Tensor t = mt::ones({2});
  ASSERT_EQ(t.use_count(), 1u);
  {
    IValue a(t);
    EXPECT_EQ(t.use_count(), 2u);
    IValue b(a);  // copy
    EXPECT_EQ(t.use_count(), 3u);
    IValue c(std::move(b));  // move: ownership transfers
    EXPECT_EQ(t.use_count(), 3u);
    EXPECT_TRUE(b.isNone());  // NOLINT(bugprone-use-after-move): a moved-from IValue is None
    IValue d;
    d = c;  // copy-assign
    EXPECT_EQ(t.use_count(), 4u);
    d = IValue(int64_t(1));  // overwriting releases the tensor
    EXPECT_EQ(t.use_count(), 3u);
    d = std::move(c);  // move-assign
    EXPECT_EQ(t.use_count(), 3u);
    {
      mt::Tensor copy = a.toTensor();  // a copy out of a const IValue
      EXPECT_EQ(t.use_count(), 4u);
    }
    mt::Tensor moved_out = std::move(d).toTensor();  // moving out leaves None and keeps the count
    EXPECT_TRUE(d.isNone());  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(t.use_count(), 3u);
    a.swap(d);
    EXPECT_TRUE(a.isNone());
    EXPECT_TRUE(d.isTensor());
    EXPECT_EQ(t.use_count(), 3u);
  }
  EXPECT_EQ(t.use_count(), 1u);  // no leak
}

TEST(IValueRefcount, MovingATensorIntoAnIValueTakesItsReference) {
  mt::Tensor t = mt::ones({2});
  mt::Tensor other = t;
  ASSERT_EQ(t.use_count(), 2u);
  {
    IValue v(std::move(other));
    EXPECT_FALSE(other.defined());  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(t.use_count(), 2u);
  }
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(IValueRefcount, StacksAndTensorListsReleaseEverything) {
  mt::Tensor t = mt::ones({2});
  {
    mt::Stack stack;
    for (int i = 0; i < 10; ++i) stack.emplace_back(t);
    EXPECT_EQ(t.use_count(), 11u);
    mt::Stack copy = stack;  // vector growth and copies move/copy IValues without losing counts
    EXPECT_EQ(t.use_count(), 21u);
    stack.erase(stack.begin(), stack.begin() + 5);
    EXPECT_EQ(t.use_count(), 16u);
  }
  EXPECT_EQ(t.use_count(), 1u);
  {
    const IValue list(std::vector<mt::Tensor>{t, t});
    EXPECT_EQ(t.use_count(), 3u);  // the list owns two references
    const IValue list_copy(list);  // the list box is shared, not its tensors copied
    EXPECT_EQ(t.use_count(), 3u);
    EXPECT_EQ(&list.toTensorList(), &list_copy.toTensorList());
  }
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(IValueRefcount, StringAndIntListBoxesAreSharedBetweenCopies) {
  const IValue s("shared");
  const IValue s2(s);
  EXPECT_EQ(&s.toStringRef(), &s2.toStringRef());
  IValue l(std::vector<int64_t>{1});
  IValue l2 = l;
  l = IValue();  // dropping one copy keeps the box alive for the other
  EXPECT_EQ(l2.toIntList(), (std::vector<int64_t>{1}));
}

TEST(IValueErrors, WrongTypeAccessThrowsTypeErrorNamingExpectedAndActual) {
  using mt_test::message_of;
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue(int64_t(3)).toBool(); }), "Expected Bool but got Int");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue("s").toTensor(); }), "Expected Tensor but got String");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue(1.5).toInt(); }), "Expected Int but got Double");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue("s").toDouble(); }), "Expected Double but got String");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue(2.0).toIntList(); }), "Expected IntList but got Double");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue().toStringRef(); }), "Expected String but got None");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue(std::vector<int64_t>{1}).toTensorList(); }),
            "Expected TensorList but got IntList");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue(mt::kFloat32).toDevice(); }), "Expected Device but got ScalarType");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue("x").toScalar(); }), "Expected Scalar but got String");
  EXPECT_EQ(message_of<mt::TypeError>([] { IValue(mt::ones({1})).toScalarType(); }),
            "Expected ScalarType but got Tensor");
  // A failed move-out leaves the value in place.
  IValue v(int64_t(9));
  EXPECT_THROW(std::move(v).toTensor(), mt::TypeError);
  EXPECT_EQ(v.toInt(), 9);  // NOLINT(bugprone-use-after-move)
  // TypeError is an mt::Error.
  EXPECT_THROW(IValue().toBool(), mt::Error);
}

// map_tensors (dispatch/MapTensors.h), as transforms and modes use it on a call's boxed values.
namespace {
bool is_full(const mt::Tensor& t, int64_t numel, double value) {
  return t.numel() == numel && t.eq(value).all().item<bool>();
}
}  // namespace

TEST(MapTensors, ReplacesDefinedTensorsAloneOrInListsAndLeavesEverythingElse) {
  const mt::Tensor a = mt::full({2}, 1.0), b = mt::full({3}, 2.0);
  const auto doubled = [](const mt::Tensor& t) { return t.mul(2); };
  EXPECT_TRUE(is_full(mt::map_tensors(IValue(a), doubled).toTensor(), 2, 2.0));
  EXPECT_TRUE(mt::map_tensors(IValue(mt::Tensor()), doubled).isNone());  // an undefined tensor boxes as None
  const IValue list = mt::map_tensors(IValue(std::vector<mt::Tensor>{a, mt::Tensor(), b}), doubled);
  ASSERT_EQ(list.toTensorList().size(), 3u);
  EXPECT_TRUE(is_full(list.toTensorList()[0], 2, 2.0));
  EXPECT_FALSE(list.toTensorList()[1].defined());  // a hole stays a hole
  EXPECT_TRUE(is_full(list.toTensorList()[2], 3, 4.0));
  EXPECT_EQ(mt::map_tensors(IValue(int64_t{7}), doubled).toInt(), 7);
  EXPECT_TRUE(mt::map_tensors(IValue(), doubled).isNone());

  // On a stack: only the last n values, in place.
  mt::Stack stack;
  stack.push_back(IValue(a));
  stack.push_back(IValue(b));
  stack.push_back(IValue(2.5));
  mt::map_tensors(&stack, 2, doubled);
  EXPECT_TRUE(is_full(stack[0].toTensor(), 2, 1.0));
  EXPECT_TRUE(is_full(stack[1].toTensor(), 3, 4.0));
  EXPECT_EQ(stack[2].toDouble(), 2.5);
}
