#include "commitlab/core/paimon/object_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "commitlab/core/paimon/committer.h"
#include "commitlab/testing/test_env.h"
#include "commitlab/testing/test_util.h"

namespace commitlab {
namespace {

using ::commitlab::test::Add;
using ::commitlab::test::AppendOf;
using ::commitlab::test::File;
using ::commitlab::test::RecordingSink;
using ::testing::HasSubstr;

// A TestEnv that runs a one-shot hook at the first publish hop of a given kind, so that a test can
// put a competing writer exactly there: in the gap between HEAD and PUT (end of the first hop) or
// just before a conditional PUT takes effect (start of the hop).
class HookEnv : public test::TestEnv {
 public:
  void BeginStorageOp(StorageOp op) override {
    TestEnv::BeginStorageOp(op);
    if (op == StorageOp::kPublish) Fire(on_begin_publish);
  }
  void EndStorageOp(StorageOp op) override {
    TestEnv::EndStorageOp(op);
    if (op == StorageOp::kPublish) Fire(on_end_publish);
  }
  std::function<void()> on_begin_publish;
  std::function<void()> on_end_publish;

 private:
  static void Fire(std::function<void()>& hook) {
    if (!hook) return;
    std::function<void()> h = std::move(hook);
    hook = nullptr;
    h();
  }
};

Snapshot SnapshotBy(std::string user, int64_t id) {
  Snapshot s;
  s.id = id;
  s.parent_id = id - 1;
  s.commit_user = std::move(user);
  s.commit_identifier = 1;
  return s;
}

TEST(ObjectStoreTest, ModeNamesRoundTrip) {
  for (PublishMode m : {PublishMode::kCheckThenPut, PublishMode::kLocked, PublishMode::kConditionalPut})
    EXPECT_EQ(ParsePublishMode(PublishModeName(m)), m);
  EXPECT_EQ(ParsePublishMode("rename"), std::nullopt);
}

TEST(ObjectStoreTest, CheckThenPutLetsTwoWritersWinTheSameSnapshot) {
  HookEnv env;
  ObjectStore store(&env, {.mode = PublishMode::kCheckThenPut});
  PublishResult b;
  Result<SnapshotRef> seen = Status::NotFound("not read yet");  // what a reader held before A's PUT replaced B's
  env.on_end_publish = [&] {                                    // inside A's gap
    b = store.Publish(SnapshotBy("B", 1));
    seen = store.LatestSnapshotRef();
  };
  PublishResult a = store.Publish(SnapshotBy("A", 1));
  EXPECT_EQ(a.outcome, PublishOutcome::kPublished);
  EXPECT_EQ(b.outcome, PublishOutcome::kPublished);
  // Both were told they published snapshot 1; only A's is there.
  EXPECT_EQ((*store.LatestSnapshot())->id, 1);
  EXPECT_EQ(store.ReadSnapshot(1)->commit_user, "A");
  ASSERT_EQ(store.Overwritten().size(), 1u);
  EXPECT_EQ(store.Overwritten()[0].commit_user, "B");
  // The overwrite replaced the stored snapshot, not the one a reader already held.
  ASSERT_TRUE(seen.ok() && *seen != nullptr);
  EXPECT_EQ((*seen)->commit_user, "B");
  // Two round trips each: HEAD, then PUT.
  EXPECT_EQ(env.ops(StorageOp::kPublish), 2);
}

TEST(ObjectStoreTest, CheckThenPutRefusesAnIdThatExistsAtTheCheck) {
  HookEnv env;
  ObjectStore store(&env, {.mode = PublishMode::kCheckThenPut});
  ASSERT_EQ(store.Publish(SnapshotBy("A", 1)).outcome, PublishOutcome::kPublished);
  EXPECT_EQ(store.Publish(SnapshotBy("B", 1)).outcome, PublishOutcome::kAlreadyExists);
  EXPECT_EQ(store.Publish(SnapshotBy("B", 3)).outcome, PublishOutcome::kError);
  EXPECT_TRUE(store.Overwritten().empty());
}

TEST(ObjectStoreTest, LockedHoldsTheLockAcrossTheGap) {
  HookEnv env;
  ObjectStore store(&env, {.mode = PublishMode::kLocked, .lock_retry_micros = 100, .lock_timeout_micros = 1000});
  PublishResult b;
  env.on_end_publish = [&] { b = store.Publish(SnapshotBy("B", 1)); };
  PublishResult a = store.Publish(SnapshotBy("A", 1));
  EXPECT_EQ(a.outcome, PublishOutcome::kPublished);
  // B could not take the lock while A was between HEAD and PUT: it waited, then gave up without
  // writing anything.
  EXPECT_EQ(b.outcome, PublishOutcome::kError);
  EXPECT_THAT(b.error.message(), HasSubstr("Timed out after 1 ms waiting for the table lock"));
  EXPECT_EQ(env.slept_micros(), 1000);
  EXPECT_TRUE(store.Overwritten().empty());
  // Once A is done, B's retry sees snapshot 1 and loses the race instead.
  EXPECT_EQ(store.Publish(SnapshotBy("B", 1)).outcome, PublishOutcome::kAlreadyExists);
  EXPECT_EQ(store.ReadSnapshot(1)->commit_user, "A");
}

// A catalog's lock (TableLock) in place of the flag: held around HEAD and PUT, and a lock that
// cannot be taken fails the publish before anything is written.
class RecordingLock final : public TableLock {
 public:
  Status Acquire(Env*) override {
    calls += "acquire ";
    return refuse ? Status::IOError("Acquire lock failed with time: PT8M") : Status::OK();
  }
  Status Release() override {
    calls += "release ";
    return Status::OK();
  }
  std::string calls;
  bool refuse = false;
};

TEST(ObjectStoreTest, LockedWithACatalogLockHoldsItAroundHeadAndPut) {
  HookEnv env;
  RecordingLock lock;
  ObjectStore store(&env, {.mode = PublishMode::kLocked, .lock = &lock});
  env.on_end_publish = [&] { lock.calls += "gap "; };  // between HEAD and PUT
  EXPECT_EQ(store.Publish(SnapshotBy("A", 1)).outcome, PublishOutcome::kPublished);
  EXPECT_EQ(lock.calls, "acquire gap release ");
  lock.refuse = true;
  PublishResult r = store.Publish(SnapshotBy("B", 2));
  EXPECT_EQ(r.outcome, PublishOutcome::kError);
  EXPECT_EQ(r.error.message(), "Acquire lock failed with time: PT8M");
  EXPECT_FALSE(store.ReadSnapshot(2).ok());
}

// On real threads the second writer waits for the lock and then loses the race: nothing lost.
TEST(ObjectStoreTest, LockedSecondWriterOnAnotherThreadWaitsThenGetsAlreadyExists) {
  class WaitSignalEnv : public HookEnv {
   public:
    void SleepMicros(int64_t micros) override {
      HookEnv::SleepMicros(micros);
      {
        std::lock_guard<std::mutex> l(mu);
        waiting = true;
      }
      cv.notify_all();
      std::this_thread::yield();
    }
    std::mutex mu;
    std::condition_variable cv;
    bool waiting = false;
  };
  WaitSignalEnv env;
  ObjectStore store(&env, {.mode = PublishMode::kLocked, .lock_retry_micros = 100, .lock_timeout_micros = -1});
  PublishResult b;
  std::thread tb;
  env.on_end_publish = [&] {
    tb = std::thread([&] { b = store.Publish(SnapshotBy("B", 1)); });
    std::unique_lock<std::mutex> l(env.mu);
    env.cv.wait(l, [&] { return env.waiting; });  // B is waiting for the lock A holds
  };
  PublishResult a = store.Publish(SnapshotBy("A", 1));
  ASSERT_TRUE(tb.joinable()) << "no gap between HEAD and PUT";
  tb.join();
  EXPECT_EQ(a.outcome, PublishOutcome::kPublished);
  EXPECT_EQ(b.outcome, PublishOutcome::kAlreadyExists);
  EXPECT_EQ(store.ReadSnapshot(1)->commit_user, "A");
  EXPECT_TRUE(store.Overwritten().empty());
}

TEST(ObjectStoreTest, ConditionalPutIsOneAtomicRoundTrip) {
  HookEnv env;
  ObjectStore store(&env, {.mode = PublishMode::kConditionalPut});
  ASSERT_EQ(store.Publish(SnapshotBy("B", 1)).outcome, PublishOutcome::kPublished);
  EXPECT_EQ(store.Publish(SnapshotBy("A", 1)).outcome, PublishOutcome::kAlreadyExists);
  EXPECT_EQ(env.ops(StorageOp::kPublish), 0);  // no extra hop inside the store
  EXPECT_EQ(store.ReadSnapshot(1)->commit_user, "B");
  EXPECT_TRUE(store.Overwritten().empty());
}

// Two Paimon committers; writer B commits in full at the worst moment for writer A.
class ObjectStoreCommitTest : public ::testing::Test {
 protected:
  Result<int> CommitA(ObjectStore& store) {
    paimon::Committer a("writer-A", {}, &env_, &store, &sink_);
    return a.Commit(AppendOf(1, {Add(File("data-a"))}));
  }
  Result<int> CommitB(ObjectStore& store, paimon::CommitOptions o = {}) {
    paimon::Committer b("writer-B", o, &env_, &store, &sink_);
    return b.Commit(AppendOf(1, {Add(File("data-b"))}));
  }
  std::vector<std::string> PublishedBy(int64_t id) {
    std::vector<std::string> users;
    for (const auto& e : sink_.events)
      if (e.type == EventType::kPublished && e.snapshot_id == id) users.push_back(e.user);
    return users;
  }
  static std::vector<std::string> ChainUsers(ObjectStore& store) {
    std::vector<std::string> users;
    auto latest = store.LatestSnapshot();
    for (int64_t id = 1; latest.ok() && latest->has_value() && id <= (*latest)->id; ++id)
      users.push_back(store.ReadSnapshot(id)->commit_user);
    return users;
  }

  HookEnv env_;
  RecordingSink sink_;
};

TEST_F(ObjectStoreCommitTest, CheckThenPutLosesAnAcknowledgedCommit) {
  ObjectStore store(&env_, {.mode = PublishMode::kCheckThenPut});
  Result<int> b = Status::NotFound("job-B has not committed yet");
  env_.on_end_publish = [&] { b = CommitB(store); };  // B's whole commit runs in A's gap
  Result<int> a = CommitA(store);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(*a, 1);
  EXPECT_EQ(*b, 1);
  // Each writer was told "Successfully commit snapshot 1"; one snapshot 1 exists, and B's file is
  // in no snapshot.
  EXPECT_THAT(PublishedBy(1), ::testing::UnorderedElementsAre("writer-A", "writer-B"));
  EXPECT_EQ(ChainUsers(store), std::vector<std::string>{"writer-A"});
  ASSERT_EQ(store.Overwritten().size(), 1u);
  EXPECT_EQ(store.Overwritten()[0].commit_user, "writer-B");
  EXPECT_EQ(store.Overwritten()[0].changes.at(0).file.name, "data-b");
  EXPECT_EQ(store.ReadSnapshot(1)->changes.at(0).file.name, "data-a");
}

TEST_F(ObjectStoreCommitTest, LockedLosesNothing) {
  ObjectStore store(&env_, {.mode = PublishMode::kLocked, .lock_retry_micros = 100, .lock_timeout_micros = 1000});
  Result<int> b = Status::NotFound("job-B has not committed yet");
  // Single-threaded, B cannot wait for A to finish: each of its publishes times out on the lock
  // and it ends with an error. What matters: no writer is told it committed a snapshot that is gone.
  paimon::CommitOptions few;
  few.retry.max_retries = 2;
  env_.on_end_publish = [&] { b = CommitB(store, few); };
  Result<int> a = CommitA(store);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(b.status().code(), Code::kRetriesExhausted);
  EXPECT_EQ(PublishedBy(1), std::vector<std::string>{"writer-A"});
  EXPECT_EQ(ChainUsers(store), std::vector<std::string>{"writer-A"});
  EXPECT_TRUE(store.Overwritten().empty());
  // B's next try after A is done lands on snapshot 2.
  ASSERT_TRUE(CommitB(store).ok());
  EXPECT_EQ(ChainUsers(store), (std::vector<std::string>{"writer-A", "writer-B"}));
}

TEST_F(ObjectStoreCommitTest, ConditionalPutLosesNothing) {
  ObjectStore store(&env_, {.mode = PublishMode::kConditionalPut});
  Result<int> b = Status::NotFound("job-B has not committed yet");
  // The last moment before A's PUT takes effect: B commits in full there.
  env_.on_begin_publish = [&] { b = CommitB(store); };
  Result<int> a = CommitA(store);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(PublishedBy(1), std::vector<std::string>{"writer-B"});
  EXPECT_EQ(PublishedBy(2), std::vector<std::string>{"writer-A"});
  EXPECT_EQ(sink_.Count(EventType::kAtomicCommitFailed), 1);
  EXPECT_EQ(ChainUsers(store), (std::vector<std::string>{"writer-B", "writer-A"}));
  EXPECT_TRUE(store.Overwritten().empty());
}

}  // namespace
}  // namespace commitlab
