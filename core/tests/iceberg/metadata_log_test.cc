#include "commitlab/core/iceberg/metadata_log.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace commitlab::iceberg {
namespace {

std::vector<std::string> Locations(int from, int to) {
  std::vector<std::string> out;
  for (int v = from; v <= to; ++v) out.push_back(fmt::format("metadata/{:05}-x.metadata.json", v));
  return out;
}

TEST(MetadataLogTest, KeepsTheNewestHundredOldestFirst) {
  MetadataLog log;
  EXPECT_TRUE(log.empty());
  MetadataLog at_150;
  for (int v = 1; v <= 450; ++v) {
    log.Append(Locations(v, v)[0]);
    if (v == 150) at_150 = log;  // a version taken before many more were built on it
    ASSERT_EQ(log.size(), static_cast<size_t>(std::min(v, 100)));
  }
  EXPECT_EQ(log.Entries(), Locations(351, 450));
  EXPECT_EQ(log.front(), Locations(351, 351)[0]);
  EXPECT_EQ(log.back(), Locations(450, 450)[0]);
  EXPECT_EQ(log[42], Locations(393, 393)[0]);
  EXPECT_EQ(at_150.Entries(), Locations(51, 150));
}

TEST(MetadataLogTest, ReadFromAListKeepsItsNewestHundred) {
  EXPECT_EQ(MetadataLog(Locations(1, 3)).Entries(), Locations(1, 3));
  EXPECT_EQ(MetadataLog(Locations(1, 130)).Entries(), Locations(31, 130));
  EXPECT_EQ(MetadataLog(Locations(1, 130)).Entries(), MetadataLog(Locations(31, 130)).Entries());
  EXPECT_NE(MetadataLog(Locations(1, 3)).Entries(), MetadataLog(Locations(2, 3)).Entries());
}

}  // namespace
}  // namespace commitlab::iceberg
