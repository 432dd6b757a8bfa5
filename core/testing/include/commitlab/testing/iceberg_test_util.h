// Helpers for the Iceberg tests: a catalog with a hook just before each swap (after HookedStore in
// core/tests/paimon/committer_test.cc), and a fixture with one table, the deterministic TestEnv
// (test_env.h) and the RecordingSink (test_util.h).
#ifndef COMMITLAB_TESTING_ICEBERG_TEST_UTIL_H_
#define COMMITLAB_TESTING_ICEBERG_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/reader.h"
#include "commitlab/testing/test_env.h"
#include "commitlab/testing/test_util.h"

namespace commitlab::iceberg::test {

// Runs `before_cas` just before each swap, so a test can slip a competing commit in between a
// writer's refresh and its swap.
class HookedCatalog : public InMemoryCatalog {
 public:
  using InMemoryCatalog::InMemoryCatalog;
  CasResult CompareAndSwap(int64_t expected_version, MetadataRef new_metadata) override {
    if (before_cas) before_cas(expected_version, *new_metadata);
    return InMemoryCatalog::CompareAndSwap(expected_version, std::move(new_metadata));
  }
  std::function<void(int64_t, const TableMetadata&)> before_cas;
};

// A catalog whose swap someone else always wins.
class AlwaysLosingCatalog : public InMemoryCatalog {
 public:
  CasResult CompareAndSwap(int64_t, MetadataRef) override {
    return {CasOutcome::kLost, "Table has been updated by another process: db.tbl"};
  }
};

// One table (HookedCatalog "db.tbl" over an InMemoryFileIO) and helpers to fill it.
class IcebergFixture : public ::testing::Test {
 protected:
  IcebergCommitter Make(std::string writer, IcebergCommitOptions options = {}) {
    return IcebergCommitter(std::move(writer), options, &env_, &catalog_, &io_, &sink_);
  }
  // A data file under data/, written to FileIO.
  // One row {id: 0}: a file of no records can match no filter (InclusiveMetricsEvaluator).
  static std::vector<Row> OneRow() { return {{{"id", int64_t{0}}}}; }
  FileRef Data(const std::string& name, std::vector<Row> rows = {}, std::string partition = "") {
    std::string path = "data/" + (partition.empty() ? "" : partition + "/") + name + ".parquet";
    FileRef f = MakeDataFile(std::move(path), std::move(rows), std::move(partition));
    EXPECT_TRUE(io_.Write({.path = f->path(),
                           .kind = FileKind::kData,
                           .written_micros = env_.NowMicros(),
                           .writer = "test",
                           .data = f})
                    .ok());
    return f;
  }
  MetadataRef Current() { return *catalog_.Current(); }
  std::vector<std::string> LivePaths() {
    std::vector<std::string> out;
    for (const auto& entry : Current()->LiveFiles()) out.push_back(entry.first);
    return out;
  }
  // The current snapshot's ancestry, oldest first.
  std::vector<SnapshotRef> Chain() {
    std::vector<SnapshotRef> out;
    MetadataRef m = Current();
    for (SnapshotRef s = m->CurrentSnapshot(); s != nullptr;
         s = s->parent_id ? m->FindSnapshot(*s->parent_id) : nullptr)
      out.insert(out.begin(), s);
    return out;
  }
  std::vector<Row> ReadAll() {
    Result<PinnedReader> r = PinnedReader::Open(&catalog_, &io_, &env_);
    EXPECT_TRUE(r.ok());
    Result<std::vector<Row>> rows = r->ReadAll();
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? *rows : std::vector<Row>{};
  }

  ::commitlab::test::TestEnv env_;
  InMemoryFileIO io_;
  HookedCatalog catalog_{"db.tbl"};
  ::commitlab::test::RecordingSink sink_;
};

}  // namespace commitlab::iceberg::test

#endif  // COMMITLAB_TESTING_ICEBERG_TEST_UTIL_H_
