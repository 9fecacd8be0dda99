// Device: construction, parsing of device strings, printing, and the errors for bad strings.
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <sstream>

namespace {

TEST(Device, ParsesTypeAndOptionalIndex) {
  const mt::Device cpu("cpu");
  EXPECT_EQ(cpu.type(), mt::kCPU);
  EXPECT_EQ(cpu.index(), -1);
  EXPECT_FALSE(cpu.has_index());
  EXPECT_TRUE(cpu.is_cpu());

  const mt::Device cuda("cuda");
  EXPECT_TRUE(cuda.is_cuda());
  EXPECT_EQ(cuda.index(), -1);

  const mt::Device cuda1("cuda:1");
  EXPECT_EQ(cuda1.type(), mt::kCUDA);
  EXPECT_EQ(cuda1.index(), 1);
  EXPECT_TRUE(cuda1.has_index());

  EXPECT_TRUE(mt::Device("meta").is_meta());
  EXPECT_EQ(mt::Device("privateuseone:0"), mt::Device(mt::kPrivateUse1, 0));
  EXPECT_EQ(mt::Device("cpu:0"), mt::Device(mt::kCPU, 0));
  EXPECT_EQ(mt::Device(std::string("cuda:127")).index(), 127);
}

TEST(Device, EqualityComparesTypeAndIndex) {
  EXPECT_EQ(mt::Device("cuda:1"), mt::Device(mt::kCUDA, 1));
  EXPECT_NE(mt::Device("cuda:1"), mt::Device(mt::kCUDA, 0));
  EXPECT_NE(mt::Device("cuda"), mt::Device(mt::kCUDA, 0));
  EXPECT_NE(mt::Device("cpu"), mt::Device("meta"));
}

TEST(Device, PrintsAsItParses) {
  for (const char* s : {"cpu", "cuda", "cuda:1", "meta", "privateuseone:3"}) EXPECT_EQ(mt::Device(s).str(), s);
  std::ostringstream ss;
  ss << mt::Device("cuda:2") << " " << mt::kMeta << " " << mt::kPrivateUse1;
  EXPECT_EQ(ss.str(), "cuda:2 meta privateuseone");
}

void expect_bad_device(const std::string& spec, const std::string& message) {
  try {
    mt::Device d(spec);
    ADD_FAILURE() << "expected mt::ValueError for '" << spec << "', got " << d;
  } catch (const mt::ValueError& e) {
    EXPECT_EQ(e.what(), message);
  }
}

TEST(Device, BadStringsAreValueErrorsNamingTheString) {
  expect_bad_device("cuda:", "Invalid device string: 'cuda:': expected a device index from 0 to 127 after ':'");
  expect_bad_device("cuda:x", "Invalid device string: 'cuda:x': expected a device index from 0 to 127 after ':'");
  expect_bad_device("cuda:-1", "Invalid device string: 'cuda:-1': expected a device index from 0 to 127 after ':'");
  expect_bad_device("cuda:01", "Invalid device string: 'cuda:01': expected a device index from 0 to 127 after ':'");
  expect_bad_device("cuda:128", "Invalid device string: 'cuda:128': expected a device index from 0 to 127 after ':'");
  expect_bad_device("gpu", "Expected one of cpu, cuda, meta, privateuseone device type at start of device string: gpu");
  expect_bad_device("", "Expected one of cpu, cuda, meta, privateuseone device type at start of device string: ");
  expect_bad_device("cpu:1", "Invalid device string: 'cpu:1': CPU device index must be -1 or zero, got 1");
}

TEST(Device, BadIndicesAreValueErrors) {
  EXPECT_THROW(mt::Device(mt::kCUDA, -2), mt::ValueError);
  EXPECT_THROW(mt::Device(mt::kCPU, 1), mt::ValueError);
}

}  // namespace
