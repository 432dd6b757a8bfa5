#include "commitlab/core/model.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "commitlab/core/rng.h"

namespace commitlab {
namespace {

TEST(ModelTest, AppendDecimalAppendsTheValueInDecimal) {
  std::string s = "manifest-";
  AppendDecimal(0, &s);
  EXPECT_EQ(s, "manifest-0");
  for (int64_t v :
       {int64_t{42}, int64_t{-7}, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    std::string out = "x";
    AppendDecimal(v, &out);
    EXPECT_EQ(out, "x" + std::to_string(v));
  }
}

TEST(ModelTest, ConcatJoinsThePartsInOrder) {
  EXPECT_EQ(Concat({}), "");
  const std::string long_part(40, 'x');  // past std::string's inline buffer
  EXPECT_EQ(Concat({"table ", long_part, "", " moved to ", std::string_view("v2")}),
            "table " + long_part + " moved to v2");
}

// RandomUuid writes its hex by hand; it must match the 8-4-4-4-12 layout of the two words it draws.
TEST(ModelTest, RandomUuidIsTheTwoDrawsInUuidLayout) {
  for (uint64_t seed : {1u, 2u, 99u, 123456u}) {
    Rng r(seed), twin(seed);
    const uint64_t a = twin.Next(), b = twin.Next();
    EXPECT_EQ(RandomUuid(r), fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xffff,
                                         b >> 48, b & 0xffffffffffffULL));
  }
}

}  // namespace
}  // namespace commitlab
