#include "commitlab/core/iceberg/apply.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/rng.h"

namespace commitlab::iceberg {
namespace {

int64_t CountedRecords(const Snapshot& s) {
  int64_t n = 0;
  for (const auto& entry : *s.live_files) n += entry.second->file.row_count;
  return n;
}

class ApplyTest : public ::testing::Test {
 protected:
  void Apply(const Operation& op) {
    ++version_;
    ApplyContext ctx{.snapshot_id = version_,
                     .manifest_list = fmt::format("metadata/snap-{}.avro", version_),
                     .metadata_location = fmt::format("metadata/{:05}.metadata.json", version_),
                     .committed_by = "test",
                     .timestamp_ms = version_};
    Result<TableMetadata> next = ApplyOperation(op, table_, ctx);
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    table_ = std::move(*next);
  }
  std::string TotalRecords() const { return table_.CurrentSnapshot()->summary.at("total-records"); }

  TableMetadata table_ = NewTableMetadata("db.tbl", 0, "uuid");
  int64_t version_ = 0;
};

// total-records carries over from the parent's summary (SnapshotProducer.summary(previous)); it
// must still be what the live files hold, through appends, deletes, rewrites and a path appended
// twice (a blind re-commit), whose removal takes both entries.
TEST_F(ApplyTest, TotalRecordsFollowTheLiveFilesThroughEveryChange) {
  Rng rng(7);
  std::vector<FileRef> live;
  for (int i = 0; i < 60; ++i) {
    const uint64_t choice = rng.Below(4);
    if (live.empty() || choice < 2) {
      std::vector<Row> rows(rng.Below(5) + 1, Row{{"id", Value(int64_t{i})}});
      FileRef f = MakeDataFile(fmt::format("data/{}.parquet", i), std::move(rows));
      Apply(NewAppend(table_, {f}));
      live.push_back(f);
      if (choice == 0) Apply(NewAppend(table_, {f}));  // the same file again
    } else if (choice == 2) {
      const size_t k = rng.Below(live.size());
      Apply(NewDeleteFiles(table_, {live[k]}));
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
    } else {
      const size_t k = rng.Below(live.size());
      FileRef merged = MakeDataFile(fmt::format("data/merged-{}.parquet", i), {Row{{"id", Value(int64_t{i})}}});
      Apply(NewRewrite(table_, {live[k]}, {merged}));
      live[k] = merged;
    }
    ASSERT_EQ(TotalRecords(), std::to_string(CountedRecords(*table_.CurrentSnapshot()))) << "step " << i;
  }
}

// Without a usable total in the parent's summary to build on (none, damaged, or at odds with its
// files), the live files are counted.
TEST_F(ApplyTest, TotalRecordsAreCountedWhenTheParentsTotalIsMissingOrWrong) {
  const std::vector<std::optional<std::string>> totals = {std::nullopt, "12abc", "-5", "", "0"};
  for (const std::optional<std::string>& total : totals) {
    table_ = NewTableMetadata("db.tbl", 0, "uuid");
    FileRef a = MakeDataFile("data/a.parquet", {Row{}, Row{}});
    Apply(NewAppend(table_, {a}));
    auto parent = std::make_shared<Snapshot>(*table_.CurrentSnapshot());
    if (total) {
      parent->summary["total-records"] = *total;
    } else {
      parent->summary.erase("total-records");
    }
    table_.snapshots.set(table_.snapshots.size() - 1, parent);
    Apply(NewDeleteFiles(table_, {a}));  // "0": removing two rows from none is caught
    Apply(NewAppend(table_, {MakeDataFile("data/b.parquet", {Row{}})}));
    EXPECT_EQ(TotalRecords(), "1") << (total ? *total : "none");
  }
  // The largest total still adds up without overflowing: counted instead.
  table_ = NewTableMetadata("db.tbl", 0, "uuid");
  Apply(NewAppend(table_, {MakeDataFile("data/a.parquet", {Row{}})}));
  auto parent = std::make_shared<Snapshot>(*table_.CurrentSnapshot());
  parent->summary["total-records"] = "9223372036854775807";
  table_.snapshots.set(table_.snapshots.size() - 1, parent);
  Apply(NewAppend(table_, {MakeDataFile("data/b.parquet", {Row{}})}));
  EXPECT_EQ(TotalRecords(), "2");
}

TEST_F(ApplyTest, EveryLiveFileCarriesTheSequenceNumberOfTheSnapshotThatAddedIt) {
  Apply(NewAppend(table_, {MakeDataFile("data/a.parquet", {Row{}})}));
  Apply(NewAppend(table_, {MakeDataFile("data/b.parquet", {Row{}})}));
  const FileRef deletes = MakePositionDeleteFile("data/a-deletes.parquet", {{"data/a.parquet", 0}});
  Apply(NewRowDelta(table_, {}, {deletes}, Expression::AlwaysTrue(), RowDeltaValidation{}));
  Apply(NewAppend(table_, {MakeDataFile("data/a.parquet", {Row{}})}));  // the same path again

  const Snapshot& s = *table_.CurrentSnapshot();
  EXPECT_EQ(s.live_files->sequence("data/b.parquet"), 2);
  EXPECT_EQ(s.live_files->sequence("data/a.parquet"), 4);  // added again: the new number
  EXPECT_EQ(s.live_deletes->sequence("data/a-deletes.parquet"), 3);
  // The parent's set is its own: the entries a later snapshot added are not in it.
  const SnapshotRef parent = table_.FindSnapshot(*s.parent_id);
  EXPECT_EQ(parent->live_files->sequence("data/a.parquet"), 1);
  EXPECT_EQ(parent->live_files->count("data/a.parquet"), 1u);
}

}  // namespace
}  // namespace commitlab::iceberg
