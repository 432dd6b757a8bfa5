#include "commitlab/sim/checker.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "commitlab/core/env.h"
#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/testing/test_env.h"

namespace commitlab::sim {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

DataFile File(std::string name, int32_t level = 0) {
  return DataFile{.name = std::move(name), .level = level, .row_count = 1};
}
FileChange Add(DataFile f) { return {ChangeKind::kAdd, std::move(f)}; }
FileChange Del(DataFile f) { return {ChangeKind::kDelete, std::move(f)}; }

Snapshot Snap(int64_t id, int64_t parent, std::string user, int64_t identifier, std::vector<FileChange> changes,
              CommitKind kind = CommitKind::kAppend) {
  return Snapshot{.id = id,
                  .parent_id = parent,
                  .commit_user = std::move(user),
                  .commit_identifier = identifier,
                  .kind = kind,
                  .changes = std::move(changes)};
}

CommitRecord Acked(std::string user, int64_t identifier, int64_t snapshot, CommitKind kind = CommitKind::kAppend) {
  return {std::move(user), identifier, kind, CommitOutcome::kAcknowledged, snapshot};
}
CommitRecord Failed(std::string user, int64_t identifier, CommitKind kind = CommitKind::kAppend) {
  return {std::move(user), identifier, kind, CommitOutcome::kFailed, 0};
}
CommitRecord Unknown(std::string user, int64_t identifier, CommitKind kind = CommitKind::kAppend) {
  return {std::move(user), identifier, kind, CommitOutcome::kUnknown, 0};
}

// Two appenders and a compaction of their files: what a correct run leaves behind.
std::vector<Snapshot> CleanChain() {
  return {Snap(1, 0, "job-A", 1, {Add(File("a1"))}), Snap(2, 1, "job-B", 1, {Add(File("b1"))}),
          Snap(3, 2, "job-A", 2, {Add(File("a2"))}),
          Snap(4, 3, "job-A", 2, {Del(File("a1")), Del(File("b1")), Add(File("c1", 1))}, CommitKind::kCompact)};
}
std::vector<CommitRecord> CleanRecords() {
  return {Acked("job-A", 1, 1), Acked("job-B", 1, 2), Acked("job-A", 2, 3), Acked("job-A", 2, 4, CommitKind::kCompact),
          Failed("job-B", 2),   Unknown("job-B", 3)};
}

std::vector<std::string> Strings(const std::vector<Violation>& vs) {
  std::vector<std::string> out;
  for (const Violation& v : vs) out.push_back(v.ToString());
  return out;
}

TEST(CheckerTest, CleanChainPasses) {
  EXPECT_THAT(CheckInvariants(CleanChain(), CleanRecords()), IsEmpty());
  EXPECT_THAT(CheckInvariants({}, {}), IsEmpty());
}

TEST(CheckerTest, OverwrittenSnapshotIsALostCommit) {
  // A broken store let job-B publish snapshot 3 over job-A's: job-A was told 3, job-B too.
  std::vector<Snapshot> chain = CleanChain();
  chain[2] = Snap(3, 2, "job-B", 2, {Add(File("a2"))});
  std::vector<CommitRecord> records = CleanRecords();
  records[4] = Acked("job-B", 2, 3);
  EXPECT_THAT(Strings(CheckInvariants(chain, records)),
              ElementsAre("lost: acknowledged commit of job-A identifier 2 kind APPEND (told snapshot 3) is not in "
                          "the table"));
}

TEST(CheckerTest, AcknowledgedTwiceIsADuplicate) {
  std::vector<Snapshot> chain = CleanChain();
  chain.push_back(Snap(5, 4, "job-B", 1, {Add(File("b1-retry"))}));
  EXPECT_THAT(Strings(CheckInvariants(chain, CleanRecords())),
              ElementsAre("duplicate: acknowledged commit of job-B identifier 1 kind APPEND appears 2 times: "
                          "snapshots 2, 5"));
}

TEST(CheckerTest, AcknowledgedInAnotherSnapshotIsMisplaced) {
  std::vector<CommitRecord> records = CleanRecords();
  records[1].snapshot_id = 3;
  EXPECT_THAT(Strings(CheckInvariants(CleanChain(), records)),
              ElementsAre("misplaced: acknowledged commit of job-B identifier 1 kind APPEND was told snapshot 3 but "
                          "is in snapshot 2"));
}

TEST(CheckerTest, GapInSnapshotIds) {
  std::vector<Snapshot> chain = CleanChain();
  chain.erase(chain.begin() + 1);  // snapshot 2 vanished; 3 still names it as parent
  std::vector<CommitRecord> records = CleanRecords();
  records.erase(records.begin() + 1);
  EXPECT_THAT(Strings(CheckInvariants(chain, records)),
              ElementsAre("gap: snapshot ids are not contiguous: snapshot 3 follows snapshot 1",
                          "delete_not_live: snapshot 4 (job-A identifier 2 kind COMPACT) deletes file b1 (partition "
                          "\"\", bucket 0, level 0) which is not live"));
  chain.erase(chain.begin());
  EXPECT_THAT(Strings(CheckInvariants({chain[0]}, {})),
              ElementsAre("gap: snapshot ids do not start at 1: the first is snapshot 3"));
}

TEST(CheckerTest, ParentThatIsNotThePredecessorIsAFork) {
  std::vector<Snapshot> chain = CleanChain();
  chain[2].parent_id = 1;  // job-A built snapshot 3 on snapshot 1, past job-B's snapshot 2
  EXPECT_THAT(Strings(CheckInvariants(chain, CleanRecords())),
              ElementsAre("fork: snapshot 3 (job-A identifier 2 kind APPEND) has parent 1, expected 2"));
}

TEST(CheckerTest, TwoSnapshotsWithOneId) {
  // A broken store that appends instead of refusing: both writers published snapshot 2 on 1.
  std::vector<Snapshot> chain = {Snap(1, 0, "job-A", 1, {Add(File("a1"))}), Snap(2, 1, "job-A", 2, {Add(File("a2"))}),
                                 Snap(2, 1, "job-B", 1, {Add(File("b1"))})};
  EXPECT_THAT(Strings(CheckInvariants(chain, {Acked("job-A", 1, 1), Acked("job-A", 2, 2), Acked("job-B", 1, 2)})),
              ElementsAre("duplicate_id: snapshot 2 (job-B identifier 1 kind APPEND) has the same id as the snapshot "
                          "before it",
                          "fork: snapshot 2 (job-B identifier 1 kind APPEND) has parent 1, expected 2"));
}

TEST(CheckerTest, DeleteOfAFileThatIsNotLive) {
  // Two compactions both deleted a1: the second built on a stale base.
  std::vector<Snapshot> chain = CleanChain();
  chain.push_back(Snap(5, 4, "job-B", 2, {Del(File("a1")), Add(File("c2", 1))}, CommitKind::kCompact));
  std::vector<CommitRecord> records = CleanRecords();
  records.push_back(Acked("job-B", 2, 5, CommitKind::kCompact));
  EXPECT_THAT(Strings(CheckInvariants(chain, records)),
              ElementsAre("delete_not_live: snapshot 5 (job-B identifier 2 kind COMPACT) deletes file a1 (partition "
                          "\"\", bucket 0, level 0) which is not live"));
}

TEST(CheckerTest, AddOfALiveFileAndReplayGoesOn) {
  std::vector<Snapshot> chain = CleanChain();
  chain.push_back(Snap(5, 4, "job-B", 4, {Add(File("a2")), Add(File("b4"))}));
  chain.push_back(Snap(6, 5, "job-B", 5, {Del(File("b4"))}));  // b4 did become live
  EXPECT_THAT(Strings(CheckInvariants(chain, {})),
              ElementsAre("add_live: snapshot 5 (job-B identifier 4 kind APPEND) adds file a2 (partition \"\", "
                          "bucket 0, level 0) which is already live"));
}

TEST(CheckerTest, FailedCommitThatAppears) {
  std::vector<Snapshot> chain = CleanChain();
  chain.push_back(Snap(5, 4, "job-B", 2, {Add(File("b2"))}));
  EXPECT_THAT(Strings(CheckInvariants(chain, CleanRecords())),
              ElementsAre("failed_visible: failed commit of job-B identifier 2 kind APPEND appears in snapshot 5"));
}

TEST(CheckerTest, UnknownOutcomeMayAppearOnceButNotTwice) {
  std::vector<Snapshot> chain = CleanChain();
  chain.push_back(Snap(5, 4, "job-B", 3, {Add(File("b3"))}));
  EXPECT_THAT(CheckInvariants(chain, CleanRecords()), IsEmpty());
  chain.push_back(Snap(6, 5, "job-B", 3, {Add(File("b3-again"))}));
  EXPECT_THAT(Strings(CheckInvariants(chain, CleanRecords())),
              ElementsAre("duplicate: commit of job-B identifier 3 kind APPEND with unknown outcome appears 2 times: "
                          "snapshots 5, 6"));
}

TEST(CheckerTest, RecordsOfOneCommitAreJudgedTogether) {
  // job-B failed identifier 2 before a restart, then committed it: present once is right.
  std::vector<Snapshot> chain = CleanChain();
  chain.push_back(Snap(5, 4, "job-B", 2, {Add(File("b2"))}));
  std::vector<CommitRecord> records = CleanRecords();
  records.push_back(Acked("job-B", 2, 5));
  EXPECT_THAT(CheckInvariants(chain, records), IsEmpty());
}

// --- OutcomeRecorder -------------------------------------------------------------------------

Event Ev(EventType type, int64_t identifier, int64_t snapshot = 0, CommitKind kind = CommitKind::kAppend) {
  return Event{.type = type, .user = "job-A", .identifier = identifier, .kind = kind, .snapshot_id = snapshot};
}

TEST(OutcomeRecorderTest, ClassifiesWhatTheWriterWasTold) {
  OutcomeRecorder r;
  // 1: lost a race, then published 3.
  for (EventType t : {EventType::kAttempt, EventType::kAtomicCommitFailed, EventType::kRetryWait, EventType::kAttempt})
    r.OnEvent(Ev(t, 1));
  r.OnEvent(Ev(EventType::kPublished, 1, 3));
  // 2: a conflict before any publish.
  r.OnEvent(Ev(EventType::kAttempt, 2));
  r.OnEvent(Ev(EventType::kConflict, 2));
  // 3: an unknown outcome, then gave up.
  for (EventType t : {EventType::kAttempt, EventType::kUnknownOutcome, EventType::kRetryWait, EventType::kGaveUp})
    r.OnEvent(Ev(t, 3));
  // 4: an unknown outcome, then found by the idempotency check.
  r.OnEvent(Ev(EventType::kAttempt, 4));
  r.OnEvent(Ev(EventType::kUnknownOutcome, 4));
  r.OnEvent(Ev(EventType::kIdempotentMatch, 4, 5));
  // 5: crashed inside an attempt; 6: crashed before reading latest; 7: still open after a lost race;
  // 8: still open mid-attempt.
  r.OnEvent(Ev(EventType::kAttempt, 5));
  r.OnEvent(Ev(EventType::kCrashed, 5));
  r.OnEvent(Ev(EventType::kCrashed, 6));
  r.OnEvent(Ev(EventType::kAttempt, 7));
  r.OnEvent(Ev(EventType::kAtomicCommitFailed, 7));
  r.OnEvent(Ev(EventType::kAttempt, 8, 0, CommitKind::kCompact));
  r.OnEvent(Ev(EventType::kFiltered, 99));

  EXPECT_THAT(r.records(), ElementsAre(CommitRecord{"job-A", 1, CommitKind::kAppend, CommitOutcome::kAcknowledged, 3},
                                       CommitRecord{"job-A", 2, CommitKind::kAppend, CommitOutcome::kFailed, 0},
                                       CommitRecord{"job-A", 3, CommitKind::kAppend, CommitOutcome::kUnknown, 0},
                                       CommitRecord{"job-A", 4, CommitKind::kAppend, CommitOutcome::kAcknowledged, 5},
                                       CommitRecord{"job-A", 5, CommitKind::kAppend, CommitOutcome::kUnknown, 0},
                                       CommitRecord{"job-A", 6, CommitKind::kAppend, CommitOutcome::kFailed, 0},
                                       CommitRecord{"job-A", 7, CommitKind::kAppend, CommitOutcome::kFailed, 0},
                                       CommitRecord{"job-A", 8, CommitKind::kCompact, CommitOutcome::kUnknown, 0}));
  // TakeRecords gives the same records, in the same order, and leaves the recorder empty.
  const std::vector<CommitRecord> before = r.records();
  EXPECT_EQ(r.TakeRecords(), before);
  EXPECT_THAT(r.records(), IsEmpty());
}

// --- End to end: the engine, a fault plan and the checker ------------------------------------

// The tests' TestEnv, asking a FaultPlan at every fault point. Writers run one after another;
// set_writer says whose turn it is.
class FaultEnv : public test::TestEnv {
 public:
  explicit FaultEnv(FaultPlan* plan) : plan_(plan) {}
  void set_writer(std::string writer) { writer_ = std::move(writer); }

  Status FaultPoint(std::string_view name) override {
    FaultDecision d = plan_->Check(writer_, name, rng());
    SleepMicros(d.delay_micros);
    return d.status;
  }

 private:
  FaultPlan* plan_;
  std::string writer_;
};

// "user:event" for every event, in order.
class EventLog : public EventSink {
 public:
  void OnEvent(const Event& e) override {
    lines.push_back(std::string(e.user) + ":" + std::string(EventTypeName(e.type)));
  }
  std::vector<std::string> lines;
};

struct RunResult {
  std::vector<Snapshot> chain;
  std::vector<CommitRecord> records;
  std::vector<FiredFault> fired;
  std::vector<std::string> events;
};

std::vector<Snapshot> ReadChain(MemoryStore& store) {
  std::vector<Snapshot> chain;
  Result<std::optional<Snapshot>> latest = store.LatestSnapshot();
  for (int64_t id = 1; latest.ok() && latest->has_value() && id <= (*latest)->id; ++id)
    chain.push_back(*store.ReadSnapshot(id));
  return chain;
}

// job-A then job-B each append one file as identifier 1; job-B's first publish.after is unknown.
RunResult RunUnknownOutcome(bool idempotency_check) {
  ScriptedFaultPlan plan({*ParseFaultRule("job-B:publish.after:nth=1:unknown")});
  FaultEnv env(&plan);
  MemoryStore store;
  OutcomeRecorder recorder;
  EventLog log;
  TeeEventSink sink({&recorder, &log});
  paimon::CommitOptions options;
  options.idempotency_check = idempotency_check;
  for (std::string writer : {"job-A", "job-B"}) {
    env.set_writer(writer);
    paimon::Committer c(writer, options, &env, &store, &sink);
    Committable commit{.identifier = 1, .append_changes = {Add(File("data-" + writer))}};
    EXPECT_TRUE(c.Commit(commit).ok()) << writer;
  }
  return {ReadChain(store), recorder.records(), plan.fired(), log.lines};
}

TEST(CheckerEndToEndTest, UnknownOutcomeWithIdempotencyCheckHasNoDuplicate) {
  RunResult run = RunUnknownOutcome(/*idempotency_check=*/true);
  EXPECT_THAT(run.fired, ElementsAre(FiredFault{"job-B", "publish.after", 1, 0, {FaultEffect::Kind::kUnknown, 0}}));
  ASSERT_EQ(run.chain.size(), 2u);
  EXPECT_THAT(run.records, ElementsAre(Acked("job-A", 1, 1), Acked("job-B", 1, 2)));
  EXPECT_THAT(CheckInvariants(run.chain, run.records), IsEmpty());
  EXPECT_THAT(run.events, ::testing::Contains("job-B:unknown_outcome"));
  EXPECT_THAT(run.events, ::testing::Contains("job-B:idempotent_match"));
}

TEST(CheckerEndToEndTest, UnknownOutcomeWithoutIdempotencyCheckIsReportedAsDuplicate) {
  RunResult run = RunUnknownOutcome(/*idempotency_check=*/false);
  ASSERT_EQ(run.chain.size(), 3u);
  EXPECT_THAT(run.records, ElementsAre(Acked("job-A", 1, 1), Acked("job-B", 1, 3)));
  EXPECT_THAT(Strings(CheckInvariants(run.chain, run.records)),
              ElementsAre("add_live: snapshot 3 (job-B identifier 1 kind APPEND) adds file data-job-B (partition "
                          "\"\", bucket 0, level 0) which is already live",
                          "duplicate: acknowledged commit of job-B identifier 1 kind APPEND appears 2 times: "
                          "snapshots 2, 3"));
}

TEST(CheckerEndToEndTest, CrashAfterPublishThenRestartWithTheSameUser) {
  ScriptedFaultPlan plan({*ParseFaultRule("job-A:publish.after:nth=1:crash")});
  FaultEnv env(&plan);
  env.set_writer("job-A");
  MemoryStore store;
  OutcomeRecorder recorder;
  const Committable commit{.identifier = 1, .append_changes = {Add(File("data-1"))}};
  {
    paimon::Committer first_life("job-A", {}, &env, &store, &recorder);
    EXPECT_EQ(first_life.Commit(commit).status().code(), Code::kCrashed);
  }
  // The restart replays its checkpoint: FilterAndCommit sees identifier 1 already committed.
  paimon::Committer restarted("job-A", {}, &env, &store, &recorder);
  EXPECT_EQ(*restarted.FilterAndCommit({commit}), 0);
  EXPECT_THAT(recorder.records(), ElementsAre(Unknown("job-A", 1)));
  EXPECT_THAT(CheckInvariants(ReadChain(store), recorder.records()), IsEmpty());

  // A restart that re-commits blindly doubles it.
  EXPECT_EQ(*restarted.Commit(commit, /*check_append_files=*/false), 1);
  EXPECT_THAT(Strings(CheckInvariants(ReadChain(store), recorder.records())),
              ElementsAre(HasSubstr("add_live: snapshot 2"),
                          "duplicate: acknowledged commit of job-A identifier 1 kind APPEND appears 2 times: "
                          "snapshots 1, 2"));
}

}  // namespace
}  // namespace commitlab::sim
