#include "commitlab/core/iceberg/sequence_map.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "commitlab/core/rng.h"

namespace commitlab::iceberg {
namespace {

std::vector<std::pair<std::string, int64_t>> Entries(const SequenceMap& m) { return {m.begin(), m.end()}; }
std::vector<std::pair<std::string, int64_t>> Entries(const std::map<std::string, int64_t>& m) {
  return {m.begin(), m.end()};
}

TEST(SequenceMapTest, AssignsReplacesAndErases) {
  SequenceMap m;
  EXPECT_EQ(m.find("a"), m.end());
  m.insert_or_assign("b", 2);
  m.insert_or_assign("a", 1);
  m.insert_or_assign("b", 5);  // added again later: the later number
  ASSERT_NE(m.find("b"), m.end());
  EXPECT_EQ(m.find("b")->second, 5);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.erase("b"), 1u);
  EXPECT_EQ(m.erase("b"), 0u);
  EXPECT_EQ(Entries(m), (std::vector<std::pair<std::string, int64_t>>{{"a", 1}}));
}

// Random assignments and removes across many chunks agree with std::map, equality is by content,
// and a copy taken midway keeps what it had (chunks are shared, never written in place).
TEST(SequenceMapTest, AgreesWithMapAndCopiesStayPut) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rng rng(seed);
    SequenceMap m;
    std::map<std::string, int64_t> ref;
    SequenceMap copy;
    std::map<std::string, int64_t> copy_ref;
    for (int step = 0; step < 4000; ++step) {
      const std::string path = fmt::format("data-{:04}.parquet", rng.Below(600));
      if (rng.Below(4) == 0) {
        ASSERT_EQ(m.erase(path), ref.erase(path)) << "seed " << seed << " step " << step;
      } else {
        const auto n = static_cast<int64_t>(rng.Below(5));
        m.insert_or_assign(path, n);
        ref.insert_or_assign(path, n);
      }
      if (step == 2000) {
        copy = m;
        copy_ref = ref;
      }
      ASSERT_EQ(m.size(), ref.size());
      ASSERT_EQ(m.find(path) == m.end(), ref.find(path) == ref.end());
    }
    EXPECT_EQ(Entries(m), Entries(ref)) << "seed " << seed;
    EXPECT_EQ(Entries(copy), Entries(copy_ref)) << "seed " << seed;
    EXPECT_EQ(copy == m, copy_ref == ref);
    SequenceMap rebuilt;
    for (const auto& [path, n] : ref) rebuilt.insert_or_assign(path, n);
    EXPECT_TRUE(rebuilt == m);
  }
}

}  // namespace
}  // namespace commitlab::iceberg
