#include "commitlab/core/paimon/committer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "commitlab/core/env_wrapper.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/testing/test_env.h"
#include "commitlab/testing/test_util.h"

namespace commitlab::paimon {
namespace {

using ::commitlab::test::Add;
using ::commitlab::test::AppendOf;
using ::commitlab::test::CompactOf;
using ::commitlab::test::Del;
using ::commitlab::test::File;
using ::commitlab::test::RecordingSink;
using ::commitlab::test::TestEnv;
using ::testing::HasSubstr;

// A memory store that runs a hook just before each publish, so a test can slip a competing
// commit in between a writer's read of the latest snapshot and its publish.
class HookedStore : public MemoryStore {
 public:
  PublishResult Publish(const Snapshot& s) override {
    if (before_publish) before_publish(s);
    return MemoryStore::Publish(s);
  }
  std::function<void(const Snapshot&)> before_publish;
};

// A store that always reports that someone else took the id.
class AlwaysLosingStore : public MemoryStore {
 public:
  PublishResult Publish(const Snapshot&) override { return {PublishOutcome::kAlreadyExists, Status::OK()}; }
};

class CommitterTest : public ::testing::Test {
 protected:
  Committer Make(std::string user, CommitOptions o = {}) {
    if (o.table == "T") o.table = "race_log";
    return Committer(std::move(user), o, &env_, &store_, &sink_);
  }
  std::vector<Snapshot> Chain() {
    std::vector<Snapshot> out;
    auto latest = store_.LatestSnapshot();
    for (int64_t id = 1; latest.ok() && latest->has_value() && id <= (*latest)->id; ++id)
      out.push_back(*store_.ReadSnapshot(id));
    return out;
  }
  DataFile NewFile(int64_t key) {
    DataFile f = File("data-" + std::to_string(next_file_++), 0, key, key, 1);
    EXPECT_TRUE(store_.WriteDataFile(f).ok());
    return f;
  }

  TestEnv env_;
  HookedStore store_;
  RecordingSink sink_;
  int next_file_ = 0;
};

TEST_F(CommitterTest, PublishesSnapshotOneThenTwo) {
  Committer c = Make("job-A");
  ASSERT_EQ(*c.Commit(AppendOf(1, {Add(NewFile(1))})), 1);
  ASSERT_EQ(*c.Commit(AppendOf(2, {Add(NewFile(2))})), 1);
  std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[1].parent_id, 1);
  EXPECT_EQ(chain[1].total_records, 2);
  EXPECT_EQ(chain[1].delta_records, 1);
  EXPECT_EQ(sink_.LastOf(EventType::kPublished).message,
            "Successfully commit snapshot 2 to table race_log by user job-A with identifier 2 and kind APPEND.");
  EXPECT_EQ(c.stats().attempts, 2);
  EXPECT_EQ(c.stats().atomic_failures, 0);
}

TEST_F(CommitterTest, LostRaceWaitsPerPolicyAndRetriesOnTheNextId) {
  Committer a = Make("job-A");
  Committer b = Make("job-B");
  bool raced = false;
  store_.before_publish = [&](const Snapshot& s) {
    if (s.commit_user == "job-B" && !raced) {
      raced = true;  // job-A takes snapshot 1 while job-B is about to publish it
      ASSERT_TRUE(a.Commit(AppendOf(1, {Add(NewFile(1))})).ok());
    }
  };
  ASSERT_EQ(*b.Commit(AppendOf(1, {Add(NewFile(2))})), 1);
  EXPECT_EQ(b.stats().atomic_failures, 1);
  EXPECT_EQ(b.stats().attempts, 2);
  const auto* warn = sink_.Last(EventType::kAtomicCommitFailed);
  ASSERT_NE(warn, nullptr);
  EXPECT_THAT(warn->message, ::testing::MatchesRegex(
                                 "Atomic commit failed for snapshot #1 by user job-B with identifier 1 and kind APPEND "
                                 "after [0-9.]+ seconds\\. Skip clean up and try again\\."));
  // Paimon's first wait: 10 ms plus up to 20 %.
  EXPECT_GE(env_.slept_micros(), 10'000);
  EXPECT_LT(env_.slept_micros(), 12'000);
  std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0].commit_user, "job-A");
  EXPECT_EQ(chain[1].commit_user, "job-B");
}

// Every attempt writes its own manifest, "manifest-{uuid}-{n}": one uuid per committer (drawn by
// its first attempt), a counter that goes on across retries and commits.
TEST_F(CommitterTest, EveryAttemptNamesItsManifestWithTheCommittersStemAndTheNextCounter) {
  Committer a = Make("job-A");
  Committer b = Make("job-B");
  bool raced = false;
  store_.before_publish = [&](const Snapshot& s) {
    if (s.commit_user == "job-B" && !raced) {
      raced = true;  // job-B loses its first attempt and retries
      ASSERT_TRUE(a.Commit(AppendOf(1, {Add(NewFile(1))})).ok());
    }
  };
  ASSERT_TRUE(b.Commit(AppendOf(1, {Add(NewFile(2))})).ok());
  ASSERT_TRUE(b.Commit(AppendOf(2, {Add(NewFile(3))})).ok());
  ASSERT_EQ(b.stats().manifests_written, 3);

  const std::vector<std::string> names = store_.ListManifests();
  ASSERT_EQ(names.size(), 4u);  // job-A's one, job-B's three
  const std::string uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
  std::vector<std::string> b_names;
  for (const std::string& name : names) {
    EXPECT_THAT(name, ::testing::MatchesRegex("manifest-" + uuid + "-[0-9]+"));
    if (name != Chain()[0].delta_manifest) b_names.push_back(name);
  }
  ASSERT_EQ(b_names.size(), 3u);
  const std::string stem = b_names[0].substr(0, b_names[0].rfind('-') + 1);
  std::vector<std::string> want;
  for (int n = 0; n < 3; ++n) want.push_back(stem + std::to_string(n));
  std::sort(b_names.begin(), b_names.end());
  EXPECT_EQ(b_names, want);  // the lost attempt's manifest too (an orphan), then the retry's
  EXPECT_EQ(Chain()[1].delta_manifest, stem + "1");
  EXPECT_EQ(Chain()[2].delta_manifest, stem + "2");
  EXPECT_NE(Chain()[0].delta_manifest.substr(0, stem.size()), stem);  // job-A drew another uuid
}

// The counter is counted up in the name's own digits: across 9 -> 10 and 99 -> 100 it still reads
// as the decimal number of the attempt.
TEST_F(CommitterTest, ManifestCountersCarryIntoANewDigit) {
  Committer c = Make("job-A");
  for (int64_t id = 1; id <= 102; ++id) ASSERT_TRUE(c.Commit(AppendOf(id, {Add(NewFile(id))})).ok());
  const std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 102u);
  const std::string stem = chain[0].delta_manifest.substr(0, chain[0].delta_manifest.rfind('-') + 1);
  for (size_t n = 0; n < chain.size(); ++n) EXPECT_EQ(chain[n].delta_manifest, stem + std::to_string(n));
}

TEST_F(CommitterTest, ExhaustedRetriesGiveUpWithPaimonsMessage) {
  AlwaysLosingStore losing;
  Committer c("job-A", {}, &env_, &losing, &sink_);
  Result<int> r = c.Commit(AppendOf(1, {Add(File("f"))}));
  ASSERT_EQ(r.status().code(), Code::kRetriesExhausted);
  EXPECT_EQ(r.status().message(),
            "Commit failed after 9223372036854775807 millis with 10 retries, there maybe exist commit conflicts "
            "between multiple jobs.");
  EXPECT_EQ(c.stats().attempts, 11);
  EXPECT_EQ(c.stats().atomic_failures, 11);
  EXPECT_EQ(c.stats().gave_up, 1);
  // 10 + 20 + ... + 5120 ms of base wait, plus under 20 % jitter each.
  EXPECT_GE(env_.slept_micros(), 10'230'000);
  EXPECT_LT(env_.slept_micros(), 12'276'000);
}

TEST_F(CommitterTest, TotalTimeoutStopsRetrying) {
  AlwaysLosingStore losing;
  CommitOptions o;
  o.retry.total_timeout_micros = 50'000;  // 50 ms: 10 + 20 + 40 ms of waits passes it
  Committer c("job-A", o, &env_, &losing, &sink_);
  Result<int> r = c.Commit(AppendOf(1, {Add(File("f"))}));
  ASSERT_EQ(r.status().code(), Code::kRetriesExhausted);
  EXPECT_THAT(r.status().message(), HasSubstr("Commit failed after 50 millis with 3 retries"));
}

TEST_F(CommitterTest, ConflictIsNeverRetried) {
  Committer w = Make("writer");
  DataFile f0 = NewFile(1);
  ASSERT_TRUE(w.Commit(AppendOf(1, {Add(f0)})).ok());
  Committer c1 = Make("compact-job-1");
  Committer c2 = Make("compact-job-2");
  ASSERT_TRUE(c1.Commit(CompactOf(1, {Del(f0), Add(File("l5-a", 5, 1, 1))})).ok());
  Result<int> r = c2.Commit(CompactOf(1, {Del(f0), Add(File("l5-b", 5, 1, 1))}));
  ASSERT_EQ(r.status().code(), Code::kConflict);
  EXPECT_EQ(c2.stats().attempts, 1);
  EXPECT_EQ(c2.stats().conflicts, 1);
  EXPECT_EQ(sink_.Count(EventType::kRetryWait), 0);
  EXPECT_EQ(env_.slept_micros(), 0);
}

// S2 第 5 讲, scenario 2 (docs/lectures.md#s2-5-conflict), end to end on one thread.
TEST_F(CommitterTest, TwoCompactorsOfTheSameL0FilesReproduceTheLecture) {
  Committer writer = Make("writer");
  std::vector<DataFile> l0;
  for (int i = 0; i < 3; ++i) {
    l0.push_back(NewFile(i + 1));
    ASSERT_TRUE(writer.Commit(AppendOf(i + 1, {Add(l0.back())})).ok());
  }
  CommitOptions stream;  // StreamWriteBuilder: empty commits are not ignored
  stream.table = "conflict_orders";
  stream.primary_key = true;
  stream.ignore_empty_commit = false;
  Committer job1 = Make("compact-job-1", stream);
  Committer job2 = Make("compact-job-2", stream);
  auto compaction = [&](const std::string& out) {
    std::vector<FileChange> ch;
    for (const DataFile& f : l0) ch.push_back(Del(f));
    ch.push_back(Add(File(out, 5, 1, 3, 3)));
    return CompactOf(1, ch);
  };
  ASSERT_EQ(*job1.Commit(compaction("data-09b6ced1-0.parquet")), 2);
  Result<int> r = job2.Commit(compaction("data-6ad7fbe4-0.parquet"));
  ASSERT_EQ(r.status().code(), Code::kConflict);
  EXPECT_THAT(r.status().message(), HasSubstr("File deletion conflicts detected! Give up committing."));
  EXPECT_THAT(r.status().message(),
              HasSubstr("Base commit user is: compact-job-2; Current commit user is: compact-job-2"));
  EXPECT_THAT(r.status().message(), HasSubstr("level=5, fileName=data-09b6ced1-0.parquet"));

  std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 6u);
  EXPECT_EQ(chain[3].kind, CommitKind::kAppend);
  EXPECT_TRUE(chain[3].changes.empty());
  EXPECT_EQ(chain[4].kind, CommitKind::kCompact);
  EXPECT_EQ(chain[4].commit_user, "compact-job-1");
  EXPECT_EQ(chain[4].total_records, 3);
  EXPECT_EQ(chain[5].kind, CommitKind::kAppend);
  EXPECT_EQ(chain[5].commit_user, "compact-job-2");
}

TEST_F(CommitterTest, EmptyCommitIsSkippedUnlessAsked) {
  Committer batch = Make("batch");
  EXPECT_EQ(*batch.Commit(AppendOf(1, {})), 0);
  CommitOptions stream;
  stream.ignore_empty_commit = false;
  Committer streaming = Make("stream", stream);
  EXPECT_EQ(*streaming.Commit(AppendOf(1, {})), 1);
  EXPECT_EQ(Chain().size(), 1u);
}

TEST_F(CommitterTest, AppendWithDeleteIsAnOverwrite) {
  Committer c = Make("job");
  DataFile f = NewFile(1);
  ASSERT_TRUE(c.Commit(AppendOf(1, {Add(f)})).ok());
  ASSERT_TRUE(c.Commit(AppendOf(2, {Del(f), Add(NewFile(2))})).ok());
  EXPECT_EQ(Chain()[1].kind, CommitKind::kOverwrite);
}

TEST_F(CommitterTest, UnknownOutcomeIsResolvedByTheIdempotencyCheck) {
  Committer c = Make("job-A");
  env_.InjectOnce(fault::kPublishAfter, Status::IOError("simulated lost reply"));
  ASSERT_EQ(*c.Commit(AppendOf(7, {Add(NewFile(1))})), 1);
  EXPECT_EQ(c.stats().unknown_outcomes, 1);
  EXPECT_EQ(c.stats().idempotent_matches, 1);
  EXPECT_EQ(Chain().size(), 1u);
  EXPECT_THAT(sink_.LastOf(EventType::kUnknownOutcome).message,
              HasSubstr("Cannot clean up because we can't determine the success."));
}

TEST_F(CommitterTest, WithoutTheIdempotencyCheckAnUnknownOutcomeDuplicatesTheCommit) {
  CommitOptions o;
  o.idempotency_check = false;
  Committer c = Make("job-A", o);
  env_.InjectOnce(fault::kPublishAfter, Status::IOError("simulated lost reply"));
  ASSERT_TRUE(c.Commit(AppendOf(7, {Add(NewFile(1))})).ok());
  std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0].commit_identifier, 7);
  EXPECT_EQ(chain[1].commit_identifier, 7);
}

TEST_F(CommitterTest, PublishThatFailsWithoutEffectIsRetried) {
  Committer c = Make("job-A");
  env_.InjectOnce(fault::kPublishBefore, Status::IOError("simulated error"));
  ASSERT_EQ(*c.Commit(AppendOf(1, {Add(NewFile(1))})), 1);
  EXPECT_EQ(c.stats().unknown_outcomes, 1);
  EXPECT_EQ(c.stats().idempotent_matches, 0);
  EXPECT_EQ(Chain().size(), 1u);
}

// A `lost` fault: the rename returns false as if another writer had taken the id. Paimon retries
// at once with the same id (nobody took it), with no idempotency scan: the outcome was known.
TEST_F(CommitterTest, AnInjectedLostRaceIsRetriedLikeARealOne) {
  Committer c = Make("job-A");
  env_.InjectOnce(fault::kPublishBefore, Status::LostRace("simulated lost race"));
  ASSERT_EQ(*c.Commit(AppendOf(1, {Add(NewFile(1))})), 1);
  EXPECT_EQ(c.stats().atomic_failures, 1);
  EXPECT_EQ(c.stats().unknown_outcomes, 0);
  EXPECT_EQ(c.stats().attempts, 2);
  EXPECT_EQ(sink_.Count(EventType::kAtomicCommitFailed), 1);
  ASSERT_EQ(Chain().size(), 1u);
  EXPECT_EQ(Chain()[0].id, 1);
}

DataFile InPartition(std::string name, std::string partition, int64_t rows = 1) {
  return File(std::move(name), 0, 1, 1, rows, 0, std::move(partition));
}

TEST_F(CommitterTest, OverwriteDeletesTheTargetPartitionsLiveFilesAndAddsItsOwn) {
  Committer c = Make("job-A");
  ASSERT_TRUE(c.Commit(AppendOf(1, {Add(InPartition("a", "dt=1/hr=1")), Add(InPartition("b", "dt=1/hr=2")),
                                    Add(InPartition("c", "dt=2/hr=1", 5))}))
                  .ok());
  ASSERT_EQ(*c.Overwrite("dt=1", AppendOf(2, {Add(InPartition("d", "dt=1/hr=1", 7))})), 1);
  const std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[1].kind, CommitKind::kOverwrite);
  EXPECT_EQ(chain[1].total_records, 5 + 7);  // a and b gone, c kept, d added
  EXPECT_EQ(chain[1].delta_records, 7 - 2);
}

TEST_F(CommitterTest, OverwriteOfTheWholeTableWithNothingAddedTruncatesIt) {
  Committer c = Make("job-A");
  ASSERT_TRUE(c.Commit(AppendOf(1, {Add(InPartition("a", "dt=1")), Add(InPartition("b", "dt=2"))})).ok());
  ASSERT_EQ(*c.Overwrite("", AppendOf(2, {})), 1);
  EXPECT_EQ(Chain().back().total_records, 0);
  EXPECT_EQ(Chain().back().kind, CommitKind::kOverwrite);
}

TEST_F(CommitterTest, OverwriteRefusesAFileOutsideItsPartition) {
  Committer c = Make("job-A");
  Result<int> r = c.Overwrite("dt=1", AppendOf(1, {Add(InPartition("x", "dt=2"))}));
  ASSERT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "Trying to overwrite partition dt=1, but the changes in dt=2 does not belong to this partition");
  EXPECT_TRUE(Chain().empty());
}

// Runs `act` once, at the first publish.before: another writer's commit lands between this
// writer's read of the latest snapshot and its publish.
class CommitBeforeFirstPublish : public EnvWrapper {
 public:
  CommitBeforeFirstPublish(Env* target, std::function<void()> act) : EnvWrapper(target), act_(std::move(act)) {}
  Status FaultPoint(std::string_view name) override {
    if (name == fault::kPublishBefore && act_) std::exchange(act_, nullptr)();
    return EnvWrapper::FaultPoint(name);
  }

 private:
  std::function<void()> act_;
};

// OverwriteChangesProvider: the retry after a lost race deletes what the winner added to the
// partition too, instead of failing on a file-deletion conflict or leaving the file live.
TEST_F(CommitterTest, AnOverwriteRetriedAfterALostRaceRecomputesItsDeletes) {
  Committer b = Make("job-B");
  ASSERT_TRUE(b.Commit(AppendOf(1, {Add(InPartition("a", "dt=1"))})).ok());
  CommitBeforeFirstPublish env(&env_,
                               [&] { ASSERT_TRUE(b.Commit(AppendOf(2, {Add(InPartition("b", "dt=1", 4))})).ok()); });
  Committer a("job-A", {.table = "race_log"}, &env, &store_, &sink_);
  ASSERT_EQ(*a.Overwrite("dt=1", AppendOf(1, {Add(InPartition("c", "dt=1", 3))})), 1);
  EXPECT_EQ(a.stats().atomic_failures, 1);
  EXPECT_EQ(a.stats().conflicts, 0);
  ASSERT_EQ(Chain().size(), 3u);
  EXPECT_EQ(Chain().back().total_records, 3);  // a and b deleted, c added
}

TEST_F(CommitterTest, CrashStopsTheWriterWithoutPublishing) {
  Committer c = Make("job-A");
  env_.InjectOnce(fault::kManifestBefore, Status::Crashed("simulated crash"));
  Result<int> r = c.Commit(AppendOf(1, {Add(NewFile(1))}));
  EXPECT_EQ(r.status().code(), Code::kCrashed);
  EXPECT_TRUE(Chain().empty());
  EXPECT_EQ(sink_.Count(EventType::kCrashed), 1);
}

TEST_F(CommitterTest, FilterCommittedKeepsIdentifiersAboveTheUsersNewest) {
  Committer x = Make("job-X");
  ASSERT_TRUE(x.Commit(AppendOf(5, {Add(NewFile(1))})).ok());
  Committer other = Make("job-Z");
  ASSERT_TRUE(other.Commit(AppendOf(9, {Add(NewFile(2))})).ok());
  Committer restarted = Make("job-X");
  auto kept = restarted.FilterCommitted({AppendOf(4, {}), AppendOf(5, {}), AppendOf(6, {})});
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].identifier, 6);
}

TEST_F(CommitterTest, FilterCommittedRejectsUnsortedInput) {
  Committer x = Make("job-X");
  auto r = x.FilterCommitted({AppendOf(6, {}), AppendOf(5, {})});
  EXPECT_EQ(r.status().message(),
            "Committables must be sorted according to identifiers before filtering. This is unexpected.");
}

// S2 第 5 讲, scenario 3 (docs/lectures.md#s2-5-restart): a restart replays checkpoint 5.
TEST_F(CommitterTest, RestartReplayIsFilteredByUserAndIdentifier) {
  DataFile f = NewFile(1);
  Committer x = Make("job-X");
  ASSERT_TRUE(x.Commit(AppendOf(5, {Add(f)})).ok());
  Committer x_restarted = Make("job-X");
  EXPECT_EQ(*x_restarted.FilterAndCommit({AppendOf(5, {Add(f)})}), 0);
  Committer y = Make("job-Y");
  EXPECT_EQ(*y.FilterAndCommit({AppendOf(5, {Add(NewFile(2))})}), 1);
  std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[1].commit_user, "job-Y");
}

TEST_F(CommitterTest, FilterAndCommitRefusesMissingFiles) {
  Committer x = Make("job-X");
  auto r = x.FilterAndCommit({AppendOf(1, {Add(File("never-written"))})});
  EXPECT_EQ(r.status().code(), Code::kNotFound);
  EXPECT_THAT(
      r.status().message(),
      HasSubstr("some files in the snapshot that need to be resubmitted have been deleted:\n    never-written\n"));
}

// Every store call is a storage operation the Env brackets, so a simulator schedules around it.
TEST_F(CommitterTest, FilterAndCommitChecksEachFileInsideAStorageOperation) {
  Committer x = Make("job-X");
  ASSERT_EQ(*x.FilterAndCommit({AppendOf(1, {Add(NewFile(1)), Add(NewFile(2))}), AppendOf(2, {Add(NewFile(3))})}), 2);
  EXPECT_EQ(env_.ops(StorageOp::kCheckData), 3);
}

TEST_F(CommitterTest, StrictModeChecksFromTheSnapshotItLastBuiltOn) {
  Committer other = Make("job-O");
  Committer strict = Make("job-S", {.strict_mode_last_safe_snapshot = -1});
  DataFile f1 = NewFile(1);
  ASSERT_EQ(*other.Commit(AppendOf(1, {Add(f1)})), 1);
  ASSERT_EQ(*other.Commit(CompactOf(2, {Del(f1), Add(File("l5", 5, 1, 1, 1))})), 1);  // snapshot 2: COMPACT
  ASSERT_EQ(*strict.Commit(AppendOf(1, {Add(NewFile(2))})), 1);                       // the first commit is not checked
  ASSERT_EQ(*other.Commit(AppendOf(3, {Add(NewFile(3))})), 1);  // another user's APPEND: no matter
  ASSERT_EQ(*strict.Commit(AppendOf(2, {Add(NewFile(4))})), 1);
  ASSERT_EQ(*other.Commit(CompactOf(4, {Del(File("l5", 5, 1, 1, 1)), Add(File("l5b", 5, 1, 1, 1))})), 1);
  Result<int> r = strict.Commit(AppendOf(3, {Add(NewFile(5))}));
  ASSERT_EQ(r.status().code(), Code::kConflict);
  EXPECT_EQ(r.status().message(),
            "When trying to commit snapshot 7, commit user job-S has found a COMPACT snapshot (id: 6) by another user "
            "job-O which modified the same partition. Giving up committing as commit.strict-mode.last-safe-snapshot "
            "is set.");
  EXPECT_EQ(strict.stats().conflicts, 1);
}

// TableCommitTest.testStrictModeForCompact: a COMPACT of another partition is no reason to give up.
TEST_F(CommitterTest, StrictModeIgnoresAnotherPartitionsCompaction) {
  Committer other = Make("job-O");
  Committer strict = Make("job-S", {.strict_mode_last_safe_snapshot = -1});
  DataFile a = File("a", 0, 1, 1, 1, 0, "pt=1");
  ASSERT_EQ(*other.Commit(AppendOf(1, {Add(a)})), 1);
  ASSERT_EQ(*strict.Commit(AppendOf(1, {Add(File("b", 0, 2, 2, 1, 0, "pt=2"))})), 1);           // snapshot 2, unchecked
  ASSERT_EQ(*other.Commit(CompactOf(2, {Del(a), Add(File("a5", 5, 1, 1, 1, 0, "pt=1"))})), 1);  // 3: COMPACT pt=1
  ASSERT_EQ(*strict.Commit(AppendOf(2, {Add(File("c", 0, 3, 3, 1, 0, "pt=2"))})), 1);
  DataFile d = File("d", 0, 4, 4, 1, 0, "pt=2");
  ASSERT_EQ(*other.Commit(AppendOf(3, {Add(d)})), 1);
  ASSERT_EQ(*other.Commit(CompactOf(4, {Del(d), Add(File("d5", 5, 4, 4, 1, 0, "pt=2"))})), 1);  // 6: COMPACT pt=2
  Result<int> r = strict.Commit(AppendOf(3, {Add(File("e", 0, 5, 5, 1, 0, "pt=2"))}));
  ASSERT_EQ(r.status().code(), Code::kConflict);
  EXPECT_EQ(r.status().message(),
            "When trying to commit snapshot 7, commit user job-S has found a COMPACT snapshot (id: 6) by another user "
            "job-O which modified the same partition. Giving up committing as commit.strict-mode.last-safe-snapshot "
            "is set.");
}

// TableCommitTest.testStrictModeForOverwriteCheckAppend: an OVERWRITE gives up on another user's
// APPEND only when that APPEND wrote into a partition the overwrite changes.
TEST_F(CommitterTest, StrictModeOverwriteChecksAppendsOfItsPartitionOnly) {
  Committer other = Make("job-O");
  Committer strict = Make("job-S", {.strict_mode_last_safe_snapshot = -1});
  ASSERT_EQ(*strict.Overwrite("pt=1", AppendOf(1, {Add(File("a", 0, 1, 1, 1, 0, "pt=1"))})), 1);
  ASSERT_EQ(*other.Commit(AppendOf(1, {Add(File("b", 0, 2, 2, 1, 0, "pt=2"))})), 1);
  ASSERT_EQ(*strict.Overwrite("pt=1", AppendOf(2, {Add(File("c", 0, 3, 3, 1, 0, "pt=1"))})), 1);
  ASSERT_EQ(*other.Commit(AppendOf(2, {Add(File("d", 0, 4, 4, 1, 0, "pt=1"))})), 1);
  Result<int> r = strict.Overwrite("pt=1", AppendOf(3, {Add(File("e", 0, 5, 5, 1, 0, "pt=1"))}));
  ASSERT_EQ(r.status().code(), Code::kConflict);
  EXPECT_EQ(r.status().message(),
            "When trying to commit snapshot 5, commit user job-S has found a APPEND snapshot (id: 4) by another user "
            "job-O which committed files to fixed bucket on the same partition. Giving up committing as "
            "commit.strict-mode.last-safe-snapshot is set.");
}

TEST_F(CommitterTest, AppendThenCompactMakesTwoSnapshotsWithOneIdentifier) {
  Committer c = Make("job");
  DataFile f = NewFile(1);
  ASSERT_TRUE(c.Commit(AppendOf(1, {Add(f)})).ok());
  Committable both{2, {Add(NewFile(2))}, {Del(f), Add(File("l1", 1, 1, 1))}};
  ASSERT_EQ(*c.Commit(both), 2);
  std::vector<Snapshot> chain = Chain();
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[1].kind, CommitKind::kAppend);
  EXPECT_EQ(chain[2].kind, CommitKind::kCompact);
  EXPECT_EQ(chain[1].commit_identifier, 2);
  EXPECT_EQ(chain[2].commit_identifier, 2);
}

TEST_F(CommitterTest, StoreRefusesAnExistingSnapshot) {
  Snapshot s{.id = 1, .commit_user = "a"};
  EXPECT_EQ(store_.Publish(s).outcome, PublishOutcome::kPublished);
  s.commit_user = "b";
  EXPECT_EQ(store_.Publish(s).outcome, PublishOutcome::kAlreadyExists);
  EXPECT_EQ(store_.ReadSnapshot(1)->commit_user, "a");
}

TEST(CommitterBudgetTest, EmptyBudgetStopsRetriesAndSuccessRefunds) {
  test::TestEnv env;
  AlwaysLosingStore losing;
  RetryBudget budget(RetryBudgetOptions{.tokens = 2, .retry_cost = 1, .success_refund = 0.5});
  CommitOptions o;
  o.budget = &budget;
  test::RecordingSink sink;
  Committer c("job-A", o, &env, &losing, &sink);
  Result<int> r = c.Commit(test::AppendOf(1, {test::Add(test::File("f"))}));
  ASSERT_EQ(r.status().code(), Code::kRetriesExhausted);
  EXPECT_EQ(r.status().message(), "Commit failed after 2 retries: the retry budget is empty, giving up.");
  EXPECT_EQ(c.stats().attempts, 3);

  MemoryStore ok_store;
  Committer d("job-B", o, &env, &ok_store, &sink);
  ASSERT_TRUE(d.Commit(test::AppendOf(1, {test::Add(test::File("g"))})).ok());
  EXPECT_DOUBLE_EQ(budget.tokens(), 0.5);
}

}  // namespace
}  // namespace commitlab::paimon
