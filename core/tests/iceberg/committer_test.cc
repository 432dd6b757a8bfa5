#include "commitlab/core/iceberg/committer.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/testing/iceberg_test_util.h"

namespace commitlab::iceberg {
namespace {

using ::commitlab::iceberg::test::AlwaysLosingCatalog;
using ::commitlab::iceberg::test::IcebergFixture;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

class IcebergCommitterTest : public IcebergFixture {
 protected:
  // Files of `kind` that `writer` wrote and FileIO still holds.
  std::vector<std::string> FilesOf(const std::string& writer, FileKind kind) {
    std::vector<std::string> out;
    for (const StoredFile& f : io_.List())
      if (f.writer == writer && f.kind == kind) out.push_back(f.path);
    return out;
  }
  // Sets a hook that commits `op` through `winner` just before `loser`'s first swap.
  void RaceBeforeSwapOf(const std::string& loser, IcebergCommitter* winner, Operation op) {
    catalog_.before_cas = [loser, winner, op, raced = false](int64_t, const TableMetadata& m) mutable {
      if (raced || m.snapshots.empty() || m.snapshots.back()->committed_by != loser) return;
      raced = true;
      ASSERT_TRUE(winner->Commit(op).ok());
    };
  }
};

TEST_F(IcebergCommitterTest, AppendBuildsTheNextMetadataVersionAndSnapshot) {
  IcebergCommitter c = Make("writer-a");
  FileRef f = Data("a", {{{"x", int64_t{1}}}, {{"x", int64_t{2}}}});
  Result<CommitResult> r = c.Commit(NewAppend(*Current(), {f}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();

  MetadataRef m = Current();
  EXPECT_EQ(m, r->committed);
  EXPECT_EQ(m->version, 1);
  EXPECT_THAT(m->location, StartsWith("metadata/00001-"));
  EXPECT_THAT(m->metadata_log.Entries(), ElementsAre(r->base->location));
  SnapshotRef s = m->CurrentSnapshot();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->snapshot_id, *r->snapshot_id);
  EXPECT_FALSE(s->parent_id.has_value());
  EXPECT_EQ(s->sequence_number, 1);
  EXPECT_EQ(s->operation, DataOperation::kAppend);
  EXPECT_EQ(s->summary.at("added-data-files"), "1");
  EXPECT_EQ(s->summary.at("added-records"), "2");
  EXPECT_EQ(s->summary.at("total-records"), "2");
  EXPECT_EQ(s->summary.count("deleted-data-files"), 0u);
  EXPECT_THAT(s->manifest_list, StartsWith(fmt::format("metadata/snap-{}-1-", s->snapshot_id)));
  ASSERT_EQ(s->manifests.size(), 1u);
  EXPECT_THAT(s->manifests[0]->files, ElementsAre(f->path()));
  EXPECT_EQ(FilesOf("writer-a", FileKind::kManifest), std::vector<std::string>{s->manifests[0]->path});
  EXPECT_EQ(FilesOf("writer-a", FileKind::kManifestList), std::vector<std::string>{s->manifest_list});
  EXPECT_EQ(FilesOf("writer-a", FileKind::kMetadata), std::vector<std::string>{m->location});
  EXPECT_EQ(sink_.LastOf(EventType::kPublished).message,
            fmt::format("Committed snapshot {} (MergeAppend)", s->snapshot_id));
  EXPECT_EQ(sink_.LastOf(EventType::kPublished).snapshot_id, 1);  // the metadata version
  EXPECT_EQ(c.stats().attempts, 1);
  EXPECT_EQ(c.stats().committed, 1);
  EXPECT_EQ(env_.ops(StorageOp::kPublish), 1);
}

TEST_F(IcebergCommitterTest, TwoAppendsRaceAndTheLoserReappliesOnTopOfTheWinner) {
  IcebergCommitter a = Make("writer-a");
  IcebergCommitter b = Make("writer-b");
  FileRef fa = Data("a", {{{"x", int64_t{1}}}});
  FileRef fb = Data("b", {{{"x", int64_t{2}}}});
  MetadataRef base = Current();  // both read v0
  RaceBeforeSwapOf("writer-b", &a, NewAppend(*base, {fa}));

  Result<CommitResult> r = b.Commit(NewAppend(*base, {fb}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->attempts, 2);
  EXPECT_EQ(b.stats().attempts, 2);
  EXPECT_EQ(b.stats().atomic_failures, 1);
  EXPECT_EQ(b.stats().committed, 1);
  EXPECT_EQ(b.stats().manifests_written, 3);  // one manifest, reused; one manifest list per attempt

  // One line: b's snapshot is the child of a's, with the next sequence number.
  std::vector<SnapshotRef> chain = Chain();
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0]->committed_by, "writer-a");
  EXPECT_EQ(chain[1]->committed_by, "writer-b");
  EXPECT_EQ(chain[1]->parent_id, chain[0]->snapshot_id);
  EXPECT_EQ(chain[0]->sequence_number, 1);
  EXPECT_EQ(chain[1]->sequence_number, 2);
  EXPECT_EQ(Current()->version, 2);
  EXPECT_EQ(Current()->snapshots.size(), 2u);
  EXPECT_EQ(LivePaths(), (std::vector<std::string>{fa->path(), fb->path()}));
  ASSERT_EQ(chain[1]->manifests.size(), 2u);  // a's manifest carried over, b's added
  EXPECT_EQ(chain[1]->manifests[0], chain[0]->manifests[0]);

  // The committed manifest list is the second attempt's; the first one was deleted.
  EXPECT_THAT(chain[1]->manifest_list, StartsWith(fmt::format("metadata/snap-{}-2-", chain[1]->snapshot_id)));
  EXPECT_EQ(FilesOf("writer-b", FileKind::kManifestList), std::vector<std::string>{chain[1]->manifest_list});

  const auto* lost = sink_.Last(EventType::kAtomicCommitFailed);
  ASSERT_NE(lost, nullptr);
  EXPECT_EQ(lost->level, Level::kWarn);
  EXPECT_THAT(lost->message,
              MatchesRegex("CommitFailedException: Cannot commit to table db\\.tbl metadata location from "
                           "metadata/00000-[-0]+\\.metadata\\.json to metadata/00001-[-0-9a-f]+\\.metadata\\.json "
                           "because it has been concurrently modified to metadata/00001-[-0-9a-f]+\\.metadata\\.json"));
  const auto* wait = sink_.Last(EventType::kRetryWait);
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->level, Level::kWarn);
  EXPECT_THAT(wait->message,
              MatchesRegex("Retrying task after failure: sleepTimeMs=10[0-9] Cannot commit to table .*"));
  // Iceberg's first wait: 100 ms plus under 10 %.
  EXPECT_GE(env_.slept_micros(), 100'000);
  EXPECT_LT(env_.slept_micros(), 110'000);
  EXPECT_EQ(wait->wait_micros, env_.slept_micros());

  // The lost attempt's metadata file is the only orphan.
  std::vector<std::string> orphans = FindOrphanFiles(*Current(), io_.List());
  ASSERT_EQ(orphans.size(), 1u);
  EXPECT_THAT(orphans[0], StartsWith("metadata/00001-"));
  EXPECT_NE(orphans[0], chain[0]->manifest_list);
}

TEST_F(IcebergCommitterTest, WithRetriesSetToZeroTheLoserFailsAndLeavesOrphansThatCleanupRemoves) {
  IcebergCommitter a = Make("writer-a");
  IcebergCommitOptions no_retries;
  no_retries.retry.max_retries = 0;
  IcebergCommitter b = Make("writer-b", no_retries);
  FileRef fa = Data("a", {{{"x", int64_t{1}}}});
  FileRef fb = Data("b", {{{"x", int64_t{2}}}});
  MetadataRef base = Current();
  RaceBeforeSwapOf("writer-b", &a, NewAppend(*base, {fa}));

  Result<CommitResult> r = b.Commit(NewAppend(*base, {fb}));
  ASSERT_EQ(r.status().code(), Code::kRetriesExhausted);
  EXPECT_THAT(r.status().message(), StartsWith("CommitFailedException: Cannot commit to table db.tbl metadata "
                                               "location from metadata/00000-"));
  EXPECT_EQ(b.stats().attempts, 1);
  EXPECT_EQ(b.stats().gave_up, 1);
  EXPECT_EQ(env_.slept_micros(), 0);
  EXPECT_EQ(sink_.LastOf(EventType::kGaveUp).message, r.status().message());

  // cleanAll took b's manifest and manifest list; its data file and metadata file stay behind.
  EXPECT_TRUE(FilesOf("writer-b", FileKind::kManifest).empty());
  EXPECT_TRUE(FilesOf("writer-b", FileKind::kManifestList).empty());
  std::vector<std::string> b_metadata = FilesOf("writer-b", FileKind::kMetadata);
  ASSERT_EQ(b_metadata.size(), 1u);
  std::vector<std::string> expected = {fb->path(), b_metadata[0]};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(FindOrphanFiles(*Current(), io_.List()), expected);

  Result<std::vector<std::string>> removed = RemoveOrphanFiles(&catalog_, &io_, &env_);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, expected);
  EXPECT_TRUE(FindOrphanFiles(*Current(), io_.List()).empty());
  // Nothing the table reaches was removed (the create-time metadata file was never written).
  for (const std::string& path : ReachableFiles(*Current()))
    EXPECT_TRUE(io_.Exists(path) || path == Current()->metadata_log.front()) << path;
  EXPECT_EQ(ReadAll(), (std::vector<Row>{{{"x", int64_t{1}}}}));
  EXPECT_TRUE(RemoveOrphanFiles(&catalog_, &io_, &env_)->empty());
}

TEST_F(IcebergCommitterTest, ExhaustedRetriesWaitPerIcebergsScheduleThenThrowCommitFailed) {
  AlwaysLosingCatalog losing;
  IcebergCommitter c("writer-a", {}, &env_, &losing, &io_, &sink_);
  Result<CommitResult> r = c.Commit(NewAppend(**losing.Current(), {Data("a")}));
  ASSERT_EQ(r.status().code(), Code::kRetriesExhausted);
  EXPECT_EQ(r.status().message(), "CommitFailedException: Table has been updated by another process: db.tbl");
  EXPECT_EQ(c.stats().attempts, 5);  // commit.retry.num-retries = 4
  EXPECT_EQ(c.stats().atomic_failures, 5);
  EXPECT_EQ(c.stats().gave_up, 1);

  // delay_k = min(100 ms * 2^(k-1), 60 s), plus U[0, 10% of it), in whole milliseconds.
  ASSERT_EQ(env_.sleeps().size(), 4u);
  for (size_t k = 1; k <= env_.sleeps().size(); ++k) {
    const int64_t delay = 100'000 << (k - 1);
    const int64_t slept = env_.sleeps()[k - 1];
    EXPECT_GE(slept, delay) << "k=" << k;
    EXPECT_LT(slept, delay + delay / 10) << "k=" << k;
    EXPECT_EQ(slept % 1000, 0) << "k=" << k;
  }
  EXPECT_GE(env_.slept_micros(), 1'500'000);
  EXPECT_LE(env_.slept_micros(), 1'646'000);
  EXPECT_EQ(sink_.Count(EventType::kRetryWait), 4);
  EXPECT_EQ(sink_.LastOf(EventType::kRetryWait).message,
            fmt::format("Retrying task after failure: sleepTimeMs={} Table has been updated by another process: db.tbl",
                        env_.sleeps().back() / 1000));
  // cleanAll: every manifest list and the manifest are gone; the data and metadata files stay.
  EXPECT_TRUE(FilesOf("writer-a", FileKind::kManifest).empty());
  EXPECT_TRUE(FilesOf("writer-a", FileKind::kManifestList).empty());
  EXPECT_EQ(FilesOf("writer-a", FileKind::kMetadata).size(), 5u);
}

TEST_F(IcebergCommitterTest, TheTotalTimeoutNeverStopsTheSecondAttempt) {
  AlwaysLosingCatalog losing;
  IcebergCommitOptions o;
  o.retry.total_timeout_micros = 0;
  IcebergCommitter c("writer-a", o, &env_, &losing, &io_, &sink_);
  Result<CommitResult> r = c.Commit(NewAppend(**losing.Current(), {Data("a")}));
  ASSERT_EQ(r.status().code(), Code::kRetriesExhausted);
  EXPECT_EQ(c.stats().attempts, 2);
  EXPECT_EQ(env_.sleeps().size(), 1u);
  EXPECT_THAT(sink_.LastOf(EventType::kGaveUp).message,
              MatchesRegex("Stopping retries after 10[0-9] ms\\. CommitFailedException: Table has been updated.*"));
}

TEST_F(IcebergCommitterTest, AnEmptyRetryBudgetStopsRetries) {
  AlwaysLosingCatalog losing;
  RetryBudget budget(RetryBudgetOptions{.tokens = 1, .retry_cost = 1, .success_refund = 0});
  IcebergCommitOptions o;
  o.budget = &budget;
  IcebergCommitter c("writer-a", o, &env_, &losing, &io_, &sink_);
  Result<CommitResult> r = c.Commit(NewAppend(**losing.Current(), {Data("a")}));
  ASSERT_EQ(r.status().code(), Code::kRetriesExhausted);
  EXPECT_EQ(c.stats().attempts, 2);
  EXPECT_THAT(sink_.LastOf(EventType::kGaveUp).message, StartsWith("The retry budget is empty after 1 retries."));
}

TEST_F(IcebergCommitterTest, AnUnknownOutcomeAfterTheSwapIsNeitherRetriedNorCleanedUp) {
  IcebergCommitter c = Make("writer-a");
  FileRef f = Data("a", {{{"x", int64_t{1}}}});
  env_.InjectOnce(fault::kPublishAfter, Status::IOError("simulated lost reply"));
  Result<CommitResult> r = c.Commit(NewAppend(*Current(), {f}));
  ASSERT_EQ(r.status().code(), Code::kIOError);
  EXPECT_THAT(r.status().message(),
              StartsWith("CommitStateUnknownException: simulated lost reply\nCannot determine whether the commit was "
                         "successful or not"));
  EXPECT_THAT(r.status().message(), HasSubstr("Retrying an already successful operation will result in duplicate "
                                              "records or unintentional modifications."));
  EXPECT_EQ(c.stats().attempts, 1);
  EXPECT_EQ(c.stats().unknown_outcomes, 1);
  EXPECT_TRUE(env_.sleeps().empty());
  EXPECT_EQ(sink_.Count(EventType::kUnknownOutcome), 1);
  // The swap did happen, and everything it references is in place.
  EXPECT_EQ(Current()->version, 1);
  SnapshotRef s = Current()->CurrentSnapshot();
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(io_.Exists(s->manifest_list));
  EXPECT_TRUE(io_.Exists(s->manifests[0]->path));

  // A caller that retries blindly (a fresh operation) duplicates the records, as the warning says.
  ASSERT_TRUE(c.Commit(NewAppend(*Current(), {f})).ok());
  EXPECT_EQ(LivePaths(), (std::vector<std::string>{f->path(), f->path()}));
  EXPECT_EQ(ReadAll().size(), 2u);
}

// A REST catalog that applies the commit but answers 504: the catalog itself reports unknown.
class SwapsThenTimesOutCatalog : public InMemoryCatalog {
 public:
  CasResult CompareAndSwap(int64_t expected_version, MetadataRef new_metadata) override {
    CasResult r = InMemoryCatalog::CompareAndSwap(expected_version, std::move(new_metadata));
    if (r.outcome != CasOutcome::kSwapped) return r;
    return {CasOutcome::kUnknown, "Service failed: 504: Gateway Timeout"};
  }
};

TEST_F(IcebergCommitterTest, AnUnknownOutcomeReportedByTheCatalogIsNotRetried) {
  SwapsThenTimesOutCatalog catalog;
  IcebergCommitter c("writer-a", {}, &env_, &catalog, &io_, &sink_);
  Result<CommitResult> r = c.Commit(NewAppend(**catalog.Current(), {Data("a")}));
  ASSERT_EQ(r.status().code(), Code::kIOError);
  EXPECT_THAT(r.status().message(), StartsWith("CommitStateUnknownException: Service failed: 504: Gateway Timeout\n"));
  EXPECT_EQ(c.stats().attempts, 1);
  EXPECT_EQ((*catalog.Current())->version, 1);  // it did land
}

TEST_F(IcebergCommitterTest, AnUnknownOutcomeBeforeTheSwapLeavesTheTableAndTheFilesAlone) {
  IcebergCommitter c = Make("writer-a");
  FileRef f = Data("a");
  env_.InjectOnce(fault::kPublishBefore, Status::IOError("simulated timeout"));
  Result<CommitResult> r = c.Commit(NewAppend(*Current(), {f}));
  ASSERT_EQ(r.status().code(), Code::kIOError);
  EXPECT_THAT(r.status().message(), StartsWith("CommitStateUnknownException: simulated timeout\n"));
  EXPECT_EQ(c.stats().attempts, 1);
  EXPECT_EQ(Current()->version, 0);
  EXPECT_EQ(env_.ops(StorageOp::kPublish), 0);
  // Nothing deleted: data file, manifest, manifest list and metadata file are orphans now.
  EXPECT_EQ(FindOrphanFiles(*Current(), io_.List()).size(), 4u);
}

// A `lost` fault is the catalog's CommitFailedException (TestTables.TestTableOperations.failCommits
// in upstream's tests): retried, unlike the unknown outcome above.
TEST_F(IcebergCommitterTest, AnInjectedLostSwapIsACommitFailedExceptionAndIsRetried) {
  IcebergCommitter c = Make("writer-a");
  env_.InjectOnce(fault::kPublishBefore, Status::LostRace("simulated lost race"));
  Result<CommitResult> r = c.Commit(NewAppend(*Current(), {Data("a")}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(c.stats().atomic_failures, 1);
  EXPECT_EQ(c.stats().unknown_outcomes, 0);
  EXPECT_EQ(c.stats().attempts, 2);
  EXPECT_EQ(Current()->version, 1);
  EXPECT_EQ(sink_.Count(EventType::kAtomicCommitFailed), 1);
}

TEST_F(IcebergCommitterTest, ACrashStopsTheWriterWhereItStands) {
  IcebergCommitter c = Make("writer-a");
  env_.InjectOnce(fault::kManifestBefore, Status::Crashed("simulated crash"));
  Result<CommitResult> r = c.Commit(NewAppend(*Current(), {Data("a")}));
  EXPECT_EQ(r.status().code(), Code::kCrashed);
  EXPECT_EQ(sink_.Count(EventType::kCrashed), 1);
  EXPECT_EQ(Current()->version, 0);
  EXPECT_TRUE(FilesOf("writer-a", FileKind::kManifest).empty());
}

TEST_F(IcebergCommitterTest, AFailedRefreshEndsTheCommit) {
  IcebergCommitter c = Make("writer-a");
  env_.InjectOnce(fault::kReadLatestBefore, Status::IOError("simulated catalog outage"));
  Result<CommitResult> r = c.Commit(NewAppend(*Current(), {Data("a")}));
  EXPECT_EQ(r.status().code(), Code::kIOError);
  EXPECT_EQ(r.status().message(), "simulated catalog outage");
  EXPECT_EQ(c.stats().attempts, 0);
  EXPECT_EQ(sink_.Count(EventType::kError), 1);
}

TEST_F(IcebergCommitterTest, ASchemaChangeMakesAMetadataVersionWithoutASnapshot) {
  IcebergCommitter c = Make("writer-a");
  Result<CommitResult> r = c.Commit(NewSchemaChange(*Current(), 1));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->snapshot_id.has_value());
  EXPECT_EQ(Current()->version, 1);
  EXPECT_EQ(Current()->current_schema_id, 1);
  EXPECT_TRUE(Current()->snapshots.empty());
  EXPECT_THAT(sink_.LastOf(EventType::kPublished).message, StartsWith("Successfully committed to table db.tbl in "));
}

// A sink that keeps events but reads no message.
class MessagelessSink : public ::commitlab::test::RecordingSink {
 public:
  bool wants_messages() const override { return false; }
};

// What a race left behind: the table, its files, the loser's attempts and the stream's next draw.
struct RaceOutcome {
  std::string location;
  std::vector<std::string> files;
  std::vector<std::map<std::string, std::string>> summaries;
  int64_t loser_attempts = 0;
  uint64_t next_draw = 0;
  friend bool operator==(const RaceOutcome&, const RaceOutcome&) = default;
};

// writer-b loses its first swap to writer-a and commits on the retry; then writer-a appends again.
RaceOutcome RaceTwoWriters(EventSink* sink) {
  ::commitlab::test::TestEnv env(7);
  InMemoryFileIO io;
  test::HookedCatalog catalog{"db.tbl"};
  IcebergCommitter a("writer-a", {}, &env, &catalog, &io, sink);
  IcebergCommitter b("writer-b", {}, &env, &catalog, &io, sink);
  auto data = [&](const std::string& name) {
    FileRef f = MakeDataFile("data/" + name + ".parquet", {{{"id", int64_t{1}}}});
    EXPECT_TRUE(io.Write({.path = f->path(), .kind = FileKind::kData, .writer = "test", .data = f}).ok());
    return f;
  };
  const FileRef fa = data("a"), fb = data("b"), fc = data("c");
  catalog.before_cas = [&, raced = false](int64_t, const TableMetadata&) mutable {
    if (raced) return;
    raced = true;
    EXPECT_TRUE(a.Commit(NewAppend(**catalog.Current(), {fa})).ok());
  };
  EXPECT_TRUE(b.Commit(NewAppend(**catalog.Current(), {fb})).ok());
  EXPECT_TRUE(a.Commit(NewAppend(**catalog.Current(), {fc})).ok());
  RaceOutcome out;
  const MetadataRef m = *catalog.Current();
  out.location = m->location;
  for (const StoredFile& f : io.List()) out.files.push_back(f.path);
  for (const SnapshotRef& s : m->snapshots) out.summaries.push_back(s->summary);
  out.loser_attempts = b.stats().attempts;
  out.next_draw = env.rng().Next();
  return out;
}

// Events are skipped for a sink that wants none, and messages for one that reads none; neither may
// change what the commits do, write or draw from the stream.
TEST(IcebergCommitterSinkTest, WhatTheSinkWantsChangesNothingButTheEvents) {
  ::commitlab::test::RecordingSink all;
  MessagelessSink messageless;
  NullEventSink none;
  const RaceOutcome want = RaceTwoWriters(&all);
  EXPECT_EQ(want.loser_attempts, 2);
  EXPECT_EQ(want.summaries.size(), 3u);
  EXPECT_THAT(want.files, ::testing::IsSupersetOf(std::vector<std::string>{"data/a.parquet", want.location}));
  EXPECT_TRUE(std::is_sorted(want.files.begin(), want.files.end())) << "List() is in path order";
  EXPECT_EQ(RaceTwoWriters(&messageless), want);
  EXPECT_EQ(RaceTwoWriters(&none), want);

  ASSERT_EQ(messageless.events.size(), all.events.size());
  for (size_t i = 0; i < all.events.size(); ++i) {
    EXPECT_EQ(messageless.events[i].type, all.events[i].type);
    EXPECT_FALSE(all.events[i].message.empty()) << EventTypeName(all.events[i].type);
  }
  EXPECT_EQ(messageless.LastOf(EventType::kAttempt).message, "");
  EXPECT_EQ(messageless.LastOf(EventType::kAtomicCommitFailed).message, "");
  EXPECT_EQ(messageless.LastOf(EventType::kRetryWait).message, "");
  EXPECT_EQ(messageless.LastOf(EventType::kPublished).message, "");
}

TEST(IcebergModelTest, MetadataFilePathPadsTheVersionToFiveDigitsAsJavaDoes) {
  for (int64_t v : {int64_t{0}, int64_t{7}, int64_t{42}, int64_t{99999}, int64_t{100000}, int64_t{-3},
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()})
    EXPECT_EQ(MetadataFilePath(v, "u-1"), fmt::format("metadata/{:05d}-u-1.metadata.json", v)) << v;
  EXPECT_EQ(MetadataFilePath(12, "abc"), "metadata/00012-abc.metadata.json");
}

}  // namespace
}  // namespace commitlab::iceberg
