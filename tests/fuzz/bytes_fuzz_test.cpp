// The two parsers of outside bytes, fed random and damaged input: the schema parser and the state-dict
// loader. Each input either parses or raises mt::Error (never a crash, a hang or a sanitizer report);
// a schema that parses prints back to itself, and a file that fails to load leaves the module as it was.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "autograd/nn/Linear.h"
#include "autograd/nn/Serialize.h"
#include "dispatch/FunctionSchema.h"
#include "ops/api/eq.h"

namespace {

using namespace mt;

// One random change: a byte replaced, deleted or inserted, or the text cut short.
std::string damaged(std::string s, std::mt19937_64& gen) {
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(gen() % n); };
  const char alphabet[] = "()[],.:*!?->= abcTensorintfloat0123456789|\"'\\\x01\xff";
  switch (gen() % 4) {
    case 0: if (!s.empty()) s[pick(s.size())] = alphabet[pick(sizeof(alphabet) - 1)]; break;
    case 1: if (!s.empty()) s.erase(pick(s.size()), 1); break;
    case 2: s.insert(pick(s.size() + 1), 1, alphabet[pick(sizeof(alphabet) - 1)]); break;
    default: s.resize(pick(s.size() + 1)); break;
  }
  return s;
}

TEST(BytesFuzz, SchemaParserParsesOrRaisesAndRoundTrips) {
  const std::vector<std::string> valid = {
      "mt::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "mt::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      "mt::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      "mt::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
      "mt::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      "mt::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
      "mt::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
      "mt::full(int[] size, Scalar fill_value, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
  };
  std::mt19937_64 gen(18);
  int parsed = 0, refused = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text = valid[trial % valid.size()];
    const int changes = 1 + static_cast<int>(gen() % 3);
    for (int k = 0; k < changes; ++k) text = damaged(text, gen);
    if (trial % 10 == 0) {  // sometimes pure noise
      text.resize(gen() % 40);
      for (char& c : text) c = static_cast<char>(gen());
    }
    try {
      const FunctionSchema schema = parse_schema(text);
      ++parsed;
      EXPECT_EQ(parse_schema(schema.str()), schema) << "'" << text << "' printed as '" << schema.str() << "'";
    } catch (const Error&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(parsed, 0);  // some changes keep a schema valid (a renamed argument, a new default)
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(BytesFuzz, DamagedStateDictFilesLoadOrRaiseAndChangeNothing) {
  const std::string path = ::testing::TempDir() + "mt_bytes_fuzz_" + std::to_string(::getpid()) + ".mt";
  mt::manual_seed(3);
  nn::Linear source(3, 4);
  nn::save(source, path);
  const std::string good = read_file(path);
  std::mt19937_64 gen(21);
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bytes = good;
    const int changes = 1 + static_cast<int>(gen() % 4);
    for (int k = 0; k < changes; ++k) {
      if (gen() % 3 == 0) bytes.resize(gen() % (bytes.size() + 1));
      else if (!bytes.empty()) bytes[gen() % bytes.size()] = static_cast<char>(gen());
    }
    write_file(path, bytes);
    nn::Linear target(3, 4);
    const Tensor weight = target.weight.clone(), bias = target.bias.clone();
    try {
      nn::load(target, path);
    } catch (const Error&) {
      ++refused;
      EXPECT_TRUE(mt::eq(target.weight, weight).all().item<bool>() && mt::eq(target.bias, bias).all().item<bool>())
          << "a failed load changed the module";
    }
    try {
      nn::load(path);
    } catch (const Error&) {
    }
  }
  std::remove(path.c_str());
  EXPECT_GT(refused, 0);
}

}  // namespace
