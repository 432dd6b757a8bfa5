// The lost-update counter of "无锁并发写入 — 乐观并发保护什么、不保护什么", three ways: two workers read
// hits = 10 and each adds 5.
#include "commitlab/scenarios/iceberg_counter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/testing/iceberg_test_util.h"

namespace commitlab::scenarios {
namespace {

using namespace ::commitlab::iceberg;  // NOLINT: the Iceberg engine's vocabulary, throughout

using ::commitlab::iceberg::test::IcebergFixture;
using ::testing::ElementsAre;
using ::testing::MatchesRegex;

class IcebergCounterTest : public IcebergFixture {
 protected:
  void SetUp() override {
    IcebergCommitter setup = Make("setup");
    hits_ = Data("hits-10", {CounterRow("hits", 10)});
    ASSERT_TRUE(setup.Commit(NewAppend(*Current(), {hits_, Data("misses-3", {CounterRow("misses", 3)})})).ok());
  }

  std::optional<int64_t> Counter(const std::string& key) {
    Result<std::optional<int64_t>> v = CounterValue(ReadAll(), key);
    EXPECT_TRUE(v.ok()) << v.status().ToString();
    return v.ok() ? *v : std::nullopt;
  }
  // The values in the data files `writer` wrote (in path order, so in writing order): what it
  // computed.
  std::vector<int64_t> ValuesWrittenBy(const std::string& writer) {
    std::vector<int64_t> out;
    for (const StoredFile& f : io_.List())
      if (f.writer == writer && f.kind == FileKind::kData) out.push_back(**CounterValue(f.data->rows, "hits"));
    return out;
  }
  // Worker A's whole increment runs just before worker B's first swap, so both read 10.
  Result<IncrementResult> Race(OnValidationFailure b_policy, IsolationLevel isolation = IsolationLevel::kSerializable) {
    bool raced = false;
    catalog_.before_cas = [&](int64_t, const TableMetadata& m) {
      if (raced || m.snapshots.back()->committed_by != "worker-b") return;
      raced = true;
      Result<IncrementResult> a = IncrementCounter(&worker_a_, "hits", 5, OnValidationFailure::kGiveUp, isolation);
      ASSERT_TRUE(a.ok()) << a.status().ToString();
      a_ = *a;
    };
    Result<IncrementResult> b = IncrementCounter(&worker_b_, "hits", 5, b_policy, isolation);
    EXPECT_TRUE(raced);
    return b;
  }

  IcebergCommitter worker_a_ = Make("worker-a");
  IcebergCommitter worker_b_ = Make("worker-b");
  IncrementResult a_;
  FileRef hits_;
};

TEST_F(IcebergCounterTest, OneWorkerAloneCountsEveryIncrement) {
  ASSERT_EQ(IncrementCounter(&worker_a_, "hits", 5, OnValidationFailure::kGiveUp)->written_value, 15);
  ASSERT_EQ(IncrementCounter(&worker_b_, "hits", 5, OnValidationFailure::kGiveUp)->written_value, 20);
  EXPECT_EQ(Counter("hits"), 20);
  EXPECT_EQ(Counter("misses"), 3);
  EXPECT_EQ(Chain().back()->operation, DataOperation::kOverwrite);
}

TEST_F(IcebergCounterTest, TheFirstWinsAndValidationStopsTheLosersRetry) {
  Result<IncrementResult> b = Race(OnValidationFailure::kGiveUp);
  ASSERT_EQ(b.status().code(), Code::kConflict);
  EXPECT_THAT(b.status().message(),
              MatchesRegex("ValidationException: Found conflicting files that can contain records matching "
                           "ref\\(name=\"name\"\\) == \"hits\": \\[data/worker-a-[-0-9a-f]+-0\\.parquet\\]"));
  EXPECT_EQ(a_.read_value, 10);
  EXPECT_EQ(a_.written_value, 15);
  EXPECT_THAT(ValuesWrittenBy("worker-b"), ElementsAre(15));  // b read 10 too
  // b lost the swap first; its retry refreshed and validation refused it.
  EXPECT_EQ(worker_b_.stats().atomic_failures, 1);
  EXPECT_EQ(worker_b_.stats().attempts, 2);
  EXPECT_EQ(worker_b_.stats().conflicts, 1);
  // cleanAll took the manifest and manifest list b's lost attempt wrote; its data file and the
  // lost attempt's metadata file stay behind as orphans.
  for (const StoredFile& f : io_.List()) {
    if (f.writer != "worker-b") continue;
    EXPECT_TRUE(f.kind == FileKind::kData || f.kind == FileKind::kMetadata) << f.path;
  }
  EXPECT_EQ(FindOrphanFiles(*Current(), io_.List()).size(), 2u);
  EXPECT_EQ(Counter("hits"), 15);
  EXPECT_EQ(Counter("misses"), 3);
  // Only a was told it succeeded: nothing acknowledged was lost.
  EXPECT_EQ(CheckCounter("hits", 10, 5, 1, *Counter("hits")), std::nullopt);
}

TEST_F(IcebergCounterTest, UnderSnapshotIsolationTheDeletedRowStopsTheLoser) {
  Result<IncrementResult> b = Race(OnValidationFailure::kGiveUp, IsolationLevel::kSnapshot);
  EXPECT_EQ(b.status().message(),
            "ValidationException: Found conflicting deleted files that can contain records matching "
            "ref(name=\"name\") == \"hits\": [data/hits-10.parquet]");
  EXPECT_EQ(Counter("hits"), 15);
}

TEST_F(IcebergCounterTest, RecommittingTheStaleValueSucceedsAndLosesAnUpdate) {
  Result<IncrementResult> b = Race(OnValidationFailure::kRecommitStale);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->read_value, 10);
  EXPECT_EQ(b->written_value, 15);
  EXPECT_EQ(b->reads, 1);
  EXPECT_EQ(b->commits, 2);
  EXPECT_EQ(b->validation_failures, 1);
  EXPECT_EQ(Counter("hits"), 15);
  // b's overwrite replaced a's row with its own stale one.
  SnapshotRef last = Chain().back();
  EXPECT_EQ(last->committed_by, "worker-b");
  ASSERT_EQ(last->deleted_files.size(), 1u);
  EXPECT_EQ(last->deleted_files[0]->rows, std::vector<Row>{CounterRow("hits", 15)});
  EXPECT_EQ(CheckCounter("hits", 10, 5, 2, *Counter("hits")),
            "lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20 (1 increment lost)");
}

TEST_F(IcebergCounterTest, RereadingAndRecomputingCountsBothIncrements) {
  Result<IncrementResult> b = Race(OnValidationFailure::kRereadAndRecompute);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->read_value, 15);
  EXPECT_EQ(b->written_value, 20);
  EXPECT_EQ(b->reads, 2);
  EXPECT_EQ(b->validation_failures, 1);
  EXPECT_EQ(Counter("hits"), 20);
  EXPECT_EQ(CheckCounter("hits", 10, 5, 2, *Counter("hits")), std::nullopt);
  // The file with the stale 15 was never committed: an orphan.
  std::vector<int64_t> written = ValuesWrittenBy("worker-b");
  EXPECT_THAT(written, ElementsAre(15, 20));
  std::vector<std::string> orphans = FindOrphanFiles(*Current(), io_.List());
  int stale = 0;
  for (const std::string& path : orphans) stale += io_.ReadDataFile(path).ok() ? 1 : 0;
  EXPECT_EQ(stale, 1);
}

TEST(IcebergCounterCheckTest, NamesWhatWasLostOrDoubled) {
  EXPECT_EQ(CheckCounter("hits", 10, 5, 2, 20), std::nullopt);
  EXPECT_EQ(CheckCounter("hits", 10, 5, 3, 15),
            "lost update: counter hits is 15, but 3 acknowledged increments of 5 from 10 make 25 (2 increments lost)");
  EXPECT_EQ(CheckCounter("hits", 10, 5, 1, 20),
            "duplicated update: counter hits is 20, but 1 acknowledged increment of 5 from 10 make 15");
}

// An increment whose commit ended with CommitStateUnknownException may be in the table or not.
TEST(IcebergCounterCheckTest, AnIncrementOfUnknownOutcomeMayHaveLanded) {
  EXPECT_EQ(CheckCounter("hits", 10, 5, 1, 15, 1), std::nullopt);
  EXPECT_EQ(CheckCounter("hits", 10, 5, 1, 20, 1), std::nullopt);
  EXPECT_EQ(CheckCounter("hits", 10, 5, 1, 25, 1),
            "duplicated update: counter hits is 25, but 1 acknowledged increment of 5 from 10 make 15, or with up to "
            "1 of unknown outcome more");
  EXPECT_EQ(CheckCounter("hits", 10, 5, 2, 15, 1),
            "lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20, or with up to 1 of "
            "unknown outcome more (1 increment lost)");
}

TEST(IcebergCounterCheckTest, SaysSoWhenTheAcknowledgedIncrementsDoNotFitIn64Bits) {
  // initial + delta * acknowledged overflows: a clear finding, not a wrapped (undefined) sum.
  EXPECT_EQ(CheckCounter("hits", INT64_MAX, 1, 1, 0),
            "counter hits: 1 acknowledged increments of 1 from 9223372036854775807 do not fit in a 64-bit integer");
  EXPECT_EQ(CheckCounter("hits", 0, INT64_MAX, 2, 0),
            "counter hits: 2 acknowledged increments of 9223372036854775807 from 0 do not fit in a 64-bit integer");
  // expected - final overflows: no count of lost increments, still a finding.
  EXPECT_EQ(CheckCounter("hits", INT64_MAX - 1, 1, 1, INT64_MIN),
            "lost update: counter hits is -9223372036854775808, but 1 acknowledged increment of 1 from "
            "9223372036854775806 make 9223372036854775807");
  EXPECT_EQ(CheckCounter("hits", -1, -1, 1, INT64_MAX),
            "duplicated update: counter hits is 9223372036854775807, but 1 acknowledged increment of -1 from -1 "
            "make -2");
}

TEST_F(IcebergCounterTest, AnIncrementInStepsIsIncrementCounterTakenApart) {
  // What the scenario runner's `counter read`, `counter add`, `counter commit` do.
  PendingIncrement inc{.delta = 5};
  ASSERT_TRUE(StartIncrement(&worker_a_, "hits", &inc).ok());
  EXPECT_EQ(inc.read_value, 10);
  EXPECT_EQ(inc.reads, 1);
  ASSERT_TRUE(WriteIncrement(&worker_a_, &inc).ok());
  ASSERT_EQ(IncrementCounter(&worker_b_, "hits", 5, OnValidationFailure::kGiveUp)->written_value, 15);
  // worker-b committed meanwhile: reread reads 15 and commits 20 on its second try.
  Result<CommitResult> r = CommitIncrement(&worker_a_, &inc, OnValidationFailure::kRereadAndRecompute);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(inc.read_value, 15);
  EXPECT_EQ(inc.reads, 2);
  EXPECT_EQ(inc.commits, 2);
  EXPECT_EQ(inc.validation_failures, 1);
  EXPECT_EQ(Counter("hits"), 20);
}

TEST_F(IcebergCounterTest, AnIncrementThatDoesNotFitIsRefusedBeforeItIsWritten) {
  PendingIncrement inc{.delta = INT64_MAX};
  ASSERT_TRUE(StartIncrement(&worker_a_, "hits", &inc).ok());
  const size_t files = io_.List().size();
  Status st = WriteIncrement(&worker_a_, &inc);
  EXPECT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_EQ(st.message(), "counter hits: 10 + 9223372036854775807 does not fit in a 64-bit integer");
  EXPECT_EQ(io_.List().size(), files);
  EXPECT_EQ(CommitIncrement(&worker_a_, &inc, OnValidationFailure::kGiveUp).status().code(), Code::kInvalidArgument);
}

TEST(IcebergCounterCheckTest, ReadsTheValueOfOneKey) {
  std::vector<Row> rows = {CounterRow("hits", 7), CounterRow("misses", 1)};
  EXPECT_EQ(*CounterValue(rows, "hits"), 7);
  EXPECT_EQ(*CounterValue(rows, "absent"), std::nullopt);
  rows.push_back(CounterRow("hits", 7));
  EXPECT_EQ(CounterValue(rows, "hits").status().code(), Code::kCorruption);
  EXPECT_EQ(ParseOnValidationFailure("reread"), OnValidationFailure::kRereadAndRecompute);
  EXPECT_EQ(ParseOnValidationFailure("nope"), std::nullopt);
}

}  // namespace
}  // namespace commitlab::scenarios
