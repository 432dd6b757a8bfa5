#include "commitlab/core/iceberg/file_set.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
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
  s.emplace("b", first, 1);
  s.emplace("a", MakeDataFile("a", {}), 1);
  s.emplace("b", second, 2);
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

TEST(FileSetTest, APathAddedAgainTakesTheNewSequenceNumberOnEveryEntry) {
  FileSet s;
  s.emplace("b", MakeDataFile("b", {}), 3);
  s.emplace("a", MakeDataFile("a", {}), 1);
  FileSet before = s;
  s.emplace("b", MakeDataFile("b", {}), 5);
  std::vector<std::pair<std::string, int64_t>> entries;
  for (auto it = s.begin(); it != s.end(); ++it) entries.emplace_back(it->first, it.sequence());
  EXPECT_EQ(entries, (std::vector<std::pair<std::string, int64_t>>{{"a", 1}, {"b", 5}, {"b", 5}}));
  EXPECT_EQ(s.sequence("b"), 5);
  EXPECT_EQ(s.sequence("a"), 1);
  EXPECT_EQ(s.sequence("c"), 0);       // not there
  EXPECT_EQ(before.sequence("b"), 3);  // a copy taken before keeps its own
}

// Every path with its sequence number, read entry by entry (each entry of a path must agree).
std::vector<std::pair<std::string, int64_t>> EntrySequences(const FileSet& s) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (auto it = s.begin(); it != s.end(); ++it) out.emplace_back(it->first, it.sequence());
  return out;
}
std::vector<std::pair<std::string, int64_t>> EntrySequences(const Reference& s,
                                                            const std::map<std::string, int64_t>& sequence) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& [path, f] : s) out.emplace_back(path, sequence.at(path));
  return out;
}

// Random adds and removes across many chunks agree with std::multimap (and a map of each path's
// sequence number), and a copy taken midway is not changed by what the original does afterwards
// (chunks are shared, never written in place).
TEST(FileSetTest, AgreesWithMultimapAndCopiesStayPut) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rng rng(seed);
    FileSet set;
    Reference ref;
    std::map<std::string, int64_t> ref_sequence;
    FileSet copy;
    Reference copy_ref;
    std::map<std::string, int64_t> copy_sequence;
    for (int step = 0; step < 4000; ++step) {
      const std::string path = fmt::format("data-{:04}.parquet", rng.Below(600));
      if (rng.Below(4) == 0) {
        ASSERT_EQ(set.erase(path), ref.erase(path)) << "seed " << seed << " step " << step;
        ref_sequence.erase(path);
      } else {
        const FileRef f = MakeDataFile(path, {});
        set.emplace(path, f, step);
        ref.emplace(path, f);
        ref_sequence[path] = step;
      }
      if (step == 2000) {
        copy = set;
        copy_ref = ref;
        copy_sequence = ref_sequence;
      }
      ASSERT_EQ(set.size(), ref.size());
      ASSERT_EQ(set.count(path), ref.count(path));
      ASSERT_EQ(set.find(path) == set.end(), ref.find(path) == ref.end());
      ASSERT_EQ(set.sequence(path), ref_sequence.count(path) != 0 ? ref_sequence[path] : 0);
    }
    EXPECT_EQ(Entries(set), Entries(ref)) << "seed " << seed;
    EXPECT_EQ(Entries(copy), Entries(copy_ref)) << "seed " << seed;
    EXPECT_EQ(EntrySequences(set), EntrySequences(ref, ref_sequence)) << "seed " << seed;
    EXPECT_EQ(EntrySequences(copy), EntrySequences(copy_ref, copy_sequence)) << "seed " << seed;
    const auto lo = set.lower_bound("data-0300");
    const auto ref_lo = ref.lower_bound("data-0300");
    ASSERT_NE(lo, set.end());
    EXPECT_EQ(lo->first, ref_lo->first);
  }
}

}  // namespace
}  // namespace commitlab::iceberg
