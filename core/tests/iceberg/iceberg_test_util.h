// Helpers for the Iceberg tests: a deterministic Env whose sleeps can be summed (after
// core/tests/test_env.h), a recording event sink, a catalog with a hook just before each swap
// (after HookedStore in core/tests/committer_test.cc), and a fixture with one table.
#ifndef COMMITLAB_CORE_TESTS_ICEBERG_ICEBERG_TEST_UTIL_H_
#define COMMITLAB_CORE_TESTS_ICEBERG_ICEBERG_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/reader.h"

namespace commitlab::iceberg::testing {

// Single-threaded and deterministic: time moves only by sleeps; fault points answer what a test
// queued for them.
class IcebergTestEnv : public Env {
 public:
  explicit IcebergTestEnv(uint64_t seed = 1) : rng_(seed) {}

  int64_t NowMicros() override { return now_; }
  void SleepMicros(int64_t micros) override {
    now_ += micros;
    slept_ += micros;
    sleeps_.push_back(micros);
  }
  Rng& rng() override { return rng_; }
  void BeginStorageOp(StorageOp op) override { ++ops_[op]; }
  void EndStorageOp(StorageOp) override {}
  Status FaultPoint(std::string_view name) override {
    auto it = faults_.find(std::string(name));
    if (it == faults_.end() || it->second.empty()) return Status::OK();
    Status s = it->second.front();
    it->second.pop_front();
    return s;
  }

  // The next hit of `point` returns `s` (queued in order).
  void InjectOnce(std::string_view point, Status s) { faults_[std::string(point)].push_back(std::move(s)); }
  int64_t slept_micros() const { return slept_; }
  const std::vector<int64_t>& sleeps() const { return sleeps_; }
  int ops(StorageOp op) { return ops_[op]; }

 private:
  int64_t now_ = 0;
  int64_t slept_ = 0;
  std::vector<int64_t> sleeps_;
  std::map<StorageOp, int> ops_;
  std::map<std::string, std::deque<Status>> faults_;
  Rng rng_;
};

struct RecordedEvent {
  EventType type;
  Level level;
  std::string user;
  int64_t snapshot_id;
  int64_t wait_micros;
  std::string message;
};

class RecordingSink : public EventSink {
 public:
  void OnEvent(const Event& e) override {
    events.push_back({e.type, e.level, std::string(e.user), e.snapshot_id, e.wait_micros, e.message});
  }
  int Count(EventType t) const {
    int n = 0;
    for (const RecordedEvent& e : events) n += e.type == t;
    return n;
  }
  const RecordedEvent* Last(EventType t) const {
    for (auto it = events.rbegin(); it != events.rend(); ++it)
      if (it->type == t) return &*it;
    return nullptr;
  }
  std::vector<RecordedEvent> events;
};

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

  IcebergTestEnv env_;
  InMemoryFileIO io_;
  HookedCatalog catalog_{"db.tbl"};
  RecordingSink sink_;
};

}  // namespace commitlab::iceberg::testing

#endif  // COMMITLAB_CORE_TESTS_ICEBERG_ICEBERG_TEST_UTIL_H_
