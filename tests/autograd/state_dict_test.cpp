// State dicts: what state_dict() holds, load_state_dict() (in place, strict and non-strict, PyTorch's
// error messages, nothing copied on error), and the file format: a save/load round trip into a fresh
// model, and missing, truncated, corrupt and mismatched files.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "autograd_test_helpers.h"
#include "ops/api/arange.h"
#include "ops/api/ones.h"
#include "ops/api/randn.h"
#include "ops/api/zeros.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

std::shared_ptr<mt::nn::Sequential> mlp(uint64_t seed, int64_t hidden = 8) {
  mt::Generator gen(seed);
  return std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Linear>(3, hidden, true, &gen),
                                              std::make_shared<mt::nn::GELU>(),
                                              std::make_shared<mt::nn::LayerNorm>(std::vector<int64_t>{hidden}),
                                              std::make_shared<mt::nn::Linear>(hidden, 2, true, &gen));
}

// A fresh path under the temp directory, removed with the fixture.
class StateDictFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = (std::filesystem::temp_directory_path() /
             (std::string("mt_state_dict_") + info->name() + "_" + std::to_string(::getpid()) + ".mt"))
                .string();
  }
  void TearDown() override { std::filesystem::remove(path_); }

  std::string bytes() const {
    std::ifstream in(path_, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void write(const std::string& data) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << data;
  }

  std::string path_;
};

TEST(StateDict, HoldsParametersAndBuffersDetachedUnderDottedNames) {
  auto model = mlp(1);
  const auto sd = model->state_dict();
  EXPECT_EQ(sd.keys(), (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias", "3.weight", "3.bias"}));
  const Tensor& w = sd["0.weight"];
  EXPECT_FALSE(w.requires_grad());
  EXPECT_EQ(w.data_ptr(), model->at<mt::nn::Linear>(0)->weight.data_ptr());  // shares storage

  mt::nn::Module m;
  m.register_parameter("p", mt::ones({2}));
  m.register_buffer("count", mt::zeros({}, mt::kInt64));
  EXPECT_EQ(m.state_dict().keys(), (std::vector<std::string>{"p", "count"}));
}

TEST(StateDict, LoadCopiesIntoTheExistingTensors) {
  auto source = mlp(1), target = mlp(2);
  const Tensor x = mt::randn({4, 3});
  ASSERT_NE(values(source->forward(x)), values(target->forward(x)));
  const auto before = target->parameters();
  std::vector<const void*> data;
  std::vector<uint32_t> versions;
  for (const Tensor& p : before) data.push_back(p.data_ptr()), versions.push_back(p._version());

  target->load_state_dict(source->state_dict());
  EXPECT_EQ(values(source->forward(x)), values(target->forward(x)));
  const auto after = target->parameters();
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_TRUE(after[i].is_same(before[i]));
    EXPECT_EQ(after[i].data_ptr(), data[i]);
    EXPECT_GT(after[i]._version(), versions[i]);
    EXPECT_TRUE(after[i].requires_grad());
    EXPECT_TRUE(after[i].is_leaf());
  }
}

TEST(StateDict, StrictLoadReportsMissingAndUnexpectedKeysAndChangesNothing) {
  auto model = mlp(1);
  auto sd = mlp(2)->state_dict();
  mt::nn::StateDict partial;
  for (const auto& [k, v] : sd) {
    if (k != "0.bias" && k != "3.weight") partial.insert(k, v);
  }
  partial.insert("extra", mt::ones({1}));
  partial.insert("4.weight", mt::ones({1}));
  const auto before = values(model->at<mt::nn::Linear>(0)->weight);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { model->load_state_dict(partial); }),
            "Error(s) in loading state_dict for Sequential:\n"
            "\tMissing key(s) in state_dict: \"0.bias\", \"3.weight\".\n"
            "\tUnexpected key(s) in state_dict: \"extra\", \"4.weight\".");
  EXPECT_EQ(values(model->at<mt::nn::Linear>(0)->weight), before);

  // Non-strict: the matching keys are loaded, the rest ignored.
  model->load_state_dict(partial, /*strict=*/false);
  EXPECT_EQ(values(model->at<mt::nn::Linear>(0)->weight), values(sd["0.weight"]));
  EXPECT_NE(values(model->at<mt::nn::Linear>(3)->weight), values(sd["3.weight"]));
}

TEST(StateDict, SizeMismatchIsAnErrorEvenWhenNotStrict) {
  auto model = mlp(1, 8);
  const auto other = mlp(2, 5)->state_dict();
  const auto before = values(model->at<mt::nn::Linear>(3)->bias);
  const std::string msg = message_of<mt::RuntimeError>([&] { model->load_state_dict(other, false); });
  EXPECT_EQ(msg,
            "Error(s) in loading state_dict for Sequential:\n"
            "\tsize mismatch for 0.weight: copying a param with shape [5, 3] from checkpoint, the shape in current "
            "model is [8, 3].\n"
            "\tsize mismatch for 0.bias: copying a param with shape [5] from checkpoint, the shape in current model "
            "is [8].\n"
            "\tsize mismatch for 2.weight: copying a param with shape [5] from checkpoint, the shape in current model "
            "is [8].\n"
            "\tsize mismatch for 2.bias: copying a param with shape [5] from checkpoint, the shape in current model "
            "is [8].\n"
            "\tsize mismatch for 3.weight: copying a param with shape [2, 5] from checkpoint, the shape in current "
            "model is [2, 8].");
  EXPECT_EQ(values(model->at<mt::nn::Linear>(3)->bias), before);  // 3.bias matched, but nothing is copied
}

TEST_F(StateDictFile, RoundTripIntoAFreshModelGivesIdenticalOutputs) {
  auto model = mlp(1);
  mt::nn::save(model, path_);
  auto fresh = mlp(2);
  const Tensor x = mt::randn({5, 3});
  ASSERT_NE(values(model->forward(x)), values(fresh->forward(x)));
  mt::nn::load(fresh, path_);
  EXPECT_EQ(values(model->forward(x)), values(fresh->forward(x)));
}

TEST_F(StateDictFile, KeepsDtypesShapesAndValues) {
  mt::nn::StateDict sd;
  sd.insert("f64", mt::tensor({{1.5, -2.25}, {3.0, 1e-300}}, mt::kFloat64));
  sd.insert("i64", mt::tensor({int64_t{1} << 40, int64_t{-7}}));
  sd.insert("flag", mt::tensor({true, false, true}));
  sd.insert("scalar", mt::tensor(0.125));
  sd.insert("empty", mt::zeros({0, 4}));
  sd.insert("strided", mt::arange(6.0).reshape({2, 3}).t());  // saved in logical order
  mt::nn::save(sd, path_);
  const auto back = mt::nn::load(path_);
  ASSERT_EQ(back.keys(), sd.keys());
  for (const auto& [k, v] : sd) {
    EXPECT_EQ(back[k].dtype(), v.dtype()) << k;
    EXPECT_EQ(back[k].sizes().vec(), v.sizes().vec()) << k;
    EXPECT_EQ(values(back[k]), values(v)) << k;
  }
}

TEST_F(StateDictFile, AMissingFileNamesThePath) {
  auto model = mlp(1);
  const std::string msg = message_of<mt::Error>([&] { mt::nn::load(model, path_); });
  EXPECT_EQ(msg, "cannot open file '" + path_ + "': No such file or directory");
  const std::string nowhere = path_ + ".d/model.mt";
  EXPECT_EQ(message_of<mt::Error>([&] { mt::nn::save(model, nowhere); }),
            "cannot open file '" + nowhere + "' for writing: No such file or directory");
}

TEST_F(StateDictFile, EveryTruncationIsReported) {
  mt::nn::StateDict sd;
  sd.insert("w", mt::ones({2, 3}));
  sd.insert("b", mt::zeros({3}, mt::kInt64));
  mt::nn::save(sd, path_);
  const std::string full = bytes();
  for (size_t n = 0; n < full.size(); ++n) {
    write(full.substr(0, n));
    const std::string msg = message_of<mt::RuntimeError>([&] { mt::nn::load(path_); });
    EXPECT_TRUE(contains(msg, "file '" + path_ + "' is truncated: it ends while reading ")) << n << ": " << msg;
  }
  write(full.substr(0, full.size() - 5));
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::nn::load(path_); }),
            "file '" + path_ + "' is truncated: it ends while reading entry 1 ('b')'s data (24 bytes needed, 19 left)");
  write(full);
  EXPECT_EQ(mt::nn::load(path_).size(), 2u);
}

TEST_F(StateDictFile, CorruptHeadersAndEntriesAreReported) {
  mt::nn::StateDict sd;
  sd.insert("w", mt::ones({2}));
  mt::nn::save(sd, path_);
  const std::string good = bytes();
  const std::string prefix = "file '" + path_ + "' is not a valid microtorch state dict: ";

  std::string bad = good;
  bad[0] = 'X';
  write(bad);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::nn::load(path_); }),
            prefix + "bad magic header (expected \"MTSTDICT\")");

  bad = good;
  bad[8] = 7;  // version
  write(bad);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::nn::load(path_); }),
            prefix + "format version 7, but this build reads version 1");

  // Layout: magic 8, version 4, count 8, name length 4, "w", dtype length 1, "float32", ...
  bad = good;
  bad[26] = 'x';  // "float32" -> "xloat32"
  write(bad);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::nn::load(path_); }),
            prefix + "entry 0 ('w') has unknown dtype 'xloat32'");

  bad = good;
  bad[37] = 3;  // sizes [2] -> [3]: the byte count no longer matches
  write(bad);
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::nn::load(path_); }),
            prefix + "entry 0 ('w') holds 8 bytes, but its sizes and dtype need 12");

  write(good + "junk");
  EXPECT_EQ(message_of<mt::RuntimeError>([&] { mt::nn::load(path_); }),
            prefix + "4 unexpected bytes after the last entry");

  // A corrupt name length must not make the reader allocate it.
  bad = good;
  bad[23] = '\x7f';
  write(bad);
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { mt::nn::load(path_); }), "is truncated"));
}

TEST_F(StateDictFile, AFileForAnotherModelIsAnErrorNamingTheFile) {
  mt::nn::save(mlp(1, 5), path_);
  auto model = mlp(2, 8);
  const auto before = values(model->at<mt::nn::Linear>(0)->weight);
  const std::string msg = message_of<mt::RuntimeError>([&] { mt::nn::load(model, path_); });
  EXPECT_TRUE(mt_test::starts_with(msg, "file '" + path_ +
                                            "' does not match the module: Error(s) in loading "
                                            "state_dict for Sequential:\n\tsize mismatch for 0.weight: "
                                            "copying a param with shape [5, 3] from checkpoint, the "
                                            "shape in current model is [8, 3]."))
      << msg;
  EXPECT_EQ(values(model->at<mt::nn::Linear>(0)->weight), before);

  mt::nn::Linear other(3, 8);
  EXPECT_TRUE(contains(message_of<mt::RuntimeError>([&] { mt::nn::load(other, path_); }),
                       "Missing key(s) in state_dict: \"weight\", \"bias\"."));
}

}  // namespace
