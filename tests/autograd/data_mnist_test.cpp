// mt::data::datasets::MNIST and read_idx: IDX files written here byte by byte (gzipped and not) read back
// with their shapes, dtypes and values; missing, truncated, corrupt and disagreeing files each raise an
// error naming the file and the problem; and Debian's Fashion-MNIST where it is installed.
#include <gtest/gtest.h>
#include <microtorch/framework.h>
#include <zlib.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "autograd_test_helpers.h"

namespace {

using mt::Tensor;
using mt::data::datasets::MNIST;
using mt::data::datasets::Mode;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;
using Bytes = std::vector<unsigned char>;

// An IDX file of unsigned bytes: the magic number, each size big-endian, then `data`.
Bytes idx(const std::vector<uint32_t>& sizes, const Bytes& data, unsigned char type = 0x08) {
  Bytes out = {0, 0, type, static_cast<unsigned char>(sizes.size())};
  for (uint32_t s : sizes)
    for (int shift : {24, 16, 8, 0}) out.push_back(static_cast<unsigned char>(s >> shift));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// n images of 2 x 3 pixels, pixel j of image i being 10 * i + j; labels 9 - i.
Bytes pixels(uint32_t n) {
  Bytes b;
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < 6; ++j) b.push_back(static_cast<unsigned char>(10 * i + j));
  return b;
}
Bytes labels(uint32_t n) {
  Bytes b;
  for (uint32_t i = 0; i < n; ++i) b.push_back(static_cast<unsigned char>(9 - i));
  return b;
}

// A fresh folder under the temp directory, removed with the fixture.
class MnistFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("mt_mnist_") + info->name() + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const Bytes& bytes, bool gzipped) {
    const std::string path = (dir_ / (gzipped ? name + ".gz" : name)).string();
    if (gzipped) {
      gzFile f = gzopen(path.c_str(), "wb");
      EXPECT_NE(f, nullptr);
      EXPECT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
      gzclose(f);
    } else {
      std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    return path;
  }
  // The training pair: n images and m labels.
  void write_train(uint32_t n, uint32_t m, bool gzipped) {
    write("train-images-idx3-ubyte", idx({n, 2, 3}, pixels(n)), gzipped);
    write("train-labels-idx1-ubyte", idx({m}, labels(m)), gzipped);
  }
  std::string root() const { return dir_.string(); }

  std::filesystem::path dir_;
};

TEST_F(MnistFiles, ReadsGzippedAndPlainFilesAsUint8ImagesAndInt64Labels) {
  for (bool gzipped : {true, false}) {
    SCOPED_TRACE(gzipped ? "gzipped" : "plain");
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    write_train(4, 4, gzipped);
    write("t10k-images-idx3-ubyte", idx({1, 2, 3}, pixels(1)), gzipped);
    write("t10k-labels-idx1-ubyte", idx({1}, labels(1)), gzipped);
    const MNIST train(root(), Mode::Train);
    EXPECT_EQ(train.size(), 4);
    EXPECT_EQ(train.images().dtype(), mt::kUInt8);
    EXPECT_EQ(train.images().sizes().vec(), (std::vector<int64_t>{4, 1, 2, 3}));
    EXPECT_EQ(train.targets().dtype(), mt::kInt64);
    EXPECT_EQ(values(train.targets()), (std::vector<double>{9, 8, 7, 6}));
    EXPECT_EQ(values(train.get(2).data), (std::vector<double>{20, 21, 22, 23, 24, 25}));
    const MNIST test(root(), Mode::Test);
    EXPECT_EQ(test.size(), 1);
    EXPECT_EQ(test.get(0).target.item<int64_t>(), 9);
  }
}

TEST_F(MnistFiles, MissingFilesAreNamed) {
  const std::string m = message_of<mt::RuntimeError>([&] { MNIST(root(), Mode::Test); });
  EXPECT_TRUE(contains(m, "t10k-images-idx3-ubyte.gz' nor '")) << m;
  EXPECT_TRUE(contains(m, "dataset-fashion-mnist")) << m;
}

TEST_F(MnistFiles, CorruptFilesRaiseAnErrorNamingTheFileAndTheProblem) {
  struct Case {
    const char* what;
    Bytes bytes;
    const char* message;
  };
  Bytes short_data = idx({3, 2, 3}, pixels(3));
  short_data.resize(short_data.size() - 5);
  Bytes long_data = idx({3, 2, 3}, pixels(3));
  long_data.push_back(0);
  const std::vector<Case> cases = {
      {"bad magic", {1, 2, 8, 3, 0, 0, 0, 0}, "is not an IDX file: its magic number is 0x1020803"},
      {"not bytes", idx({3, 2, 3}, pixels(3), 0x0d), "holds IDX elements of type 0xd, but only unsigned bytes"},
      {"short header", {0, 0, 8, 3, 0, 0}, "is truncated: it ends while reading the dimension sizes"},
      {"short data", short_data, "is truncated: it ends while reading the data (18 bytes needed, 13 read)"},
      {"trailing bytes", long_data, "holds more bytes than its sizes [3, 2, 3] declare"},
      {"images of 2 dims", idx({3, 6}, pixels(3)), "holds 2-d data, but MNIST images are 3-d"},
  };
  for (bool gzipped : {true, false}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.what) + (gzipped ? ", gzipped" : ", plain"));
      std::filesystem::remove_all(dir_);
      std::filesystem::create_directories(dir_);
      const std::string path = write("train-images-idx3-ubyte", c.bytes, gzipped);
      write("train-labels-idx1-ubyte", idx({3}, labels(3)), gzipped);
      const std::string m = message_of<mt::RuntimeError>([&] { MNIST(root(), Mode::Train); });
      EXPECT_TRUE(contains(m, "file '" + path + "'")) << m;
      EXPECT_TRUE(contains(m, c.message)) << m;
    }
  }
}

TEST_F(MnistFiles, CountsThatDisagreeAndBrokenGzipStreamsAreErrors) {
  write_train(3, 2, true);
  std::string m = message_of<mt::RuntimeError>([&] { MNIST(root(), Mode::Train); });
  EXPECT_TRUE(contains(m, "train-images-idx3-ubyte.gz' holds 3 images but '")) << m;
  EXPECT_TRUE(contains(m, "train-labels-idx1-ubyte.gz' holds 2 labels")) << m;
  // A gzip stream cut short.
  const Bytes file = idx({3, 2, 3}, pixels(3));
  const std::string path = write("train-images-idx3-ubyte", file, true);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 6);
  m = message_of<mt::RuntimeError>([&] { mt::data::datasets::read_idx(path); });
  EXPECT_TRUE(contains(m, "file '" + path + "' is truncated")) << m;
  // A corrupt one: the deflate data overwritten.
  write("train-images-idx3-ubyte", file, true);
  {
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(12);
    f.write("\xff\xff\xff\xff\xff\xff", 6);
  }
  m = message_of<mt::RuntimeError>([&] { mt::data::datasets::read_idx(path); });
  EXPECT_TRUE(contains(m, "file '" + path + "'")) << m;
}

// Debian's dataset-fashion-mnist (scripts/install_deps.sh installs it).
TEST(DataFashionMnist, TheInstalledFilesHaveTheirKnownShapesAndClasses) {
  if (!std::filesystem::exists(mt::data::datasets::kFashionMnistDir)) {
    GTEST_SKIP() << "Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)";
  }
  const MNIST train(mt::data::datasets::kFashionMnistDir, Mode::Train);
  const MNIST test(mt::data::datasets::kFashionMnistDir, Mode::Test);
  EXPECT_EQ(train.images().sizes().vec(), (std::vector<int64_t>{60000, 1, 28, 28}));
  EXPECT_EQ(test.images().sizes().vec(), (std::vector<int64_t>{10000, 1, 28, 28}));
  // Every class 0-9 appears 6000 times in the training set and 1000 times in the test set.
  std::vector<int64_t> count(10, 0);
  for (double label : values(train.targets())) count.at(static_cast<size_t>(label))++;
  EXPECT_EQ(count, std::vector<int64_t>(10, 6000));
  count.assign(10, 0);
  for (double label : values(test.targets())) count.at(static_cast<size_t>(label))++;
  EXPECT_EQ(count, std::vector<int64_t>(10, 1000));
  // The first training image is an ankle boot (class 9), the first test image too.
  EXPECT_EQ(train.get(0).target.item<int64_t>(), 9);
  EXPECT_EQ(test.get(0).target.item<int64_t>(), 9);
}

}  // namespace
