#include "commitlab/core/iceberg/deletes.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace commitlab::iceberg {
namespace {

std::vector<Row> Ids(std::vector<int64_t> ids) {
  std::vector<Row> rows;
  for (int64_t id : ids) rows.push_back({{"id", id}});
  return rows;
}

// A snapshot whose live files were added at the given sequence numbers.
Snapshot With(std::vector<std::pair<FileRef, int64_t>> deletes, std::map<std::string, int64_t> data_sequence) {
  Snapshot s;
  auto data = std::make_shared<FileSet>();
  for (const auto& [path, seq] : data_sequence) data->emplace(path, MakeDataFile(path, {}), seq);
  auto live = std::make_shared<FileSet>();
  for (auto& [d, seq] : deletes) live->emplace(d->path(), d, seq);
  s.live_files = std::move(data);
  s.live_deletes = std::move(live);
  return s;
}

TEST(IcebergDeletesTest, APositionDeleteAppliesFromItsOwnSequenceNumberOn) {
  FileRef data = MakeDataFile("data/a.parquet", Ids({10, 11, 12}));
  FileRef pos = MakePositionDeleteFile("data/a-deletes.parquet", {{"data/a.parquet", 1}, {"data/other.parquet", 0}});
  // Written in the same commit as the data (a MERGE's new rows and their deletes): it applies.
  EXPECT_EQ(LiveRows(With({{pos, 2}}, {{"data/a.parquet", 2}}), *data), Ids({10, 12}));
  // Data rewritten after the delete (a higher sequence number): it no longer applies.
  EXPECT_EQ(LiveRows(With({{pos, 2}}, {{"data/a.parquet", 3}}), *data), Ids({10, 11, 12}));
}

TEST(IcebergDeletesTest, AnEqualityDeleteAppliesOnlyToOlderDataOfItsPartition) {
  FileRef data = MakeDataFile("data/p=1/a.parquet", Ids({1, 2, 3}), "p=1");
  FileRef eq = MakeEqualityDeleteFile("data/p=1/d.parquet", {"id"}, Ids({2, 3}), "p=1");
  FileRef elsewhere = MakeEqualityDeleteFile("data/p=2/d.parquet", {"id"}, Ids({1}), "p=2");
  EXPECT_EQ(DeletedPositions(With({{eq, 5}, {elsewhere, 5}}, {{"data/p=1/a.parquet", 4}}), *data),
            (std::vector<int64_t>{1, 2}));
  // Same sequence number: the delete does not apply (equality deletes need a strictly newer one).
  EXPECT_TRUE(DeletedPositions(With({{eq, 4}}, {{"data/p=1/a.parquet", 4}}), *data).empty());
}

}  // namespace
}  // namespace commitlab::iceberg
