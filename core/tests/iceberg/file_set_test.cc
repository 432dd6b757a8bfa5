#include "commitlab/core/iceberg/file_set.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/rng.h"

namespace commitlab::iceberg {
namespace {

using Reference = std::multimap<std::string, FileRef>;

// Each entry's path and file, in order: equal files are the same object, so a duplicate path keeps
// the order it was added in.
std::vector<std::pair<std::string, const IcebergDataFile*>> Entries(const FileSet& s) {
  std::vector<std::pair<std::string, const IcebergDataFile*>> out;
  for (const auto& [path, f] : s) out.emplace_back(path, f.get());
  return out;
}
std::vector<std::pair<std::string, const IcebergDataFile*>> Entries(const Reference& s) {
  std::vector<std::pair<std::string, const IcebergDataFile*>> out;
  for (const auto& [path, f] : s) out.emplace_back(path, f.get());
  return out;
}

TEST(FileSetTest, EmptySetFindsNothing) {
  FileSet s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.begin(), s.end());
  EXPECT_EQ(s.find("a"), s.end());
  EXPECT_EQ(s.count("a"), 0u);
  EXPECT_EQ(s.erase("a"), 0u);
}

TEST(FileSetTest, DuplicatePathsStayInTheOrderAdded) {
  FileSet s;
  const FileRef first = MakeDataFile("b", {});
  const FileRef second = MakeDataFile("b", {});
  s.emplace("b", first);
  s.emplace("a", MakeDataFile("a", {}));
  s.emplace("b", second);
  ASSERT_EQ(s.count("b"), 2u);
  auto [lo, hi] = s.equal_range("b");
  EXPECT_EQ(lo->second, first);
  ++lo;
  EXPECT_EQ(lo->second, second);
  ++lo;
  EXPECT_EQ(lo, hi);
  EXPECT_EQ(s.erase("b"), 2u);
  EXPECT_EQ(s.size(), 1u);
}

TEST(FileSetTest, EachEntryKeepsItsSequenceNumberAndAPathReadsItsLast) {
  FileSet s;
  s.emplace("b", MakeDataFile("b", {}), 3);
  s.emplace("a", MakeDataFile("a", {}), 1);
  s.emplace("b", MakeDataFile("b", {}), 5);
  std::vector<std::pair<std::string, int64_t>> entries;
  for (auto it = s.begin(); it != s.end(); ++it) entries.emplace_back(it->first, it.sequence());
  EXPECT_EQ(entries, (std::vector<std::pair<std::string, int64_t>>{{"a", 1}, {"b", 3}, {"b", 5}}));
  EXPECT_EQ(s.sequence("b"), 5);  // added last
  EXPECT_EQ(s.sequence("a"), 1);
  EXPECT_EQ(s.sequence("c"), 0);  // not there

  FileSet copy = s;
  copy.erase("b");
  copy.emplace("b", MakeDataFile("b", {}), 7);
  EXPECT_EQ(copy.sequence("b"), 7);
  EXPECT_EQ(s.sequence("b"), 5);  // the original keeps its own
}

// Random adds and removes across many chunks agree with std::multimap, and a copy taken midway is
// not changed by what the original does afterwards (chunks are shared, never written in place).
TEST(FileSetTest, AgreesWithMultimapAndCopiesStayPut) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rng rng(seed);
    FileSet set;
    Reference ref;
    FileSet copy;
    Reference copy_ref;
    for (int step = 0; step < 4000; ++step) {
      const std::string path = fmt::format("data-{:04}.parquet", rng.Below(600));
      if (rng.Below(4) == 0) {
        ASSERT_EQ(set.erase(path), ref.erase(path)) << "seed " << seed << " step " << step;
      } else {
        const FileRef f = MakeDataFile(path, {});
        set.emplace(path, f);
        ref.emplace(path, f);
      }
      if (step == 2000) {
        copy = set;
        copy_ref = ref;
      }
      ASSERT_EQ(set.size(), ref.size());
      ASSERT_EQ(set.count(path), ref.count(path));
      ASSERT_EQ(set.find(path) == set.end(), ref.find(path) == ref.end());
    }
    EXPECT_EQ(Entries(set), Entries(ref)) << "seed " << seed;
    EXPECT_EQ(Entries(copy), Entries(copy_ref)) << "seed " << seed;
    const auto lo = set.lower_bound("data-0300");
    const auto ref_lo = ref.lower_bound("data-0300");
    ASSERT_NE(lo, set.end());
    EXPECT_EQ(lo->first, ref_lo->first);
  }
}

}  // namespace
}  // namespace commitlab::iceberg
