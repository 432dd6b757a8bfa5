// Paimon's JDBC catalog lock against a real PostgreSQL server (PgCluster), and an object store's
// non-atomic rename made safe by it.
#include "commitlab/catalogs/jdbc_lock.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/catalogs/pg_cluster.h"
#include "commitlab/core/paimon/object_store.h"
#include "commitlab/sim/real_env.h"
#include "commitlab/testing/test_env.h"

namespace commitlab::catalogs {
namespace {

using ::testing::StartsWith;

class JdbcLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<PgCluster>> c = PgCluster::Start();
    ASSERT_TRUE(c.ok()) << "cannot start the throwaway PostgreSQL server: " << c.status().ToString();
    cluster_ = std::move(*c);
  }
  std::unique_ptr<JdbcTableLock> Open(JdbcLockOptions options = {}) {
    Result<std::unique_ptr<JdbcTableLock>> l = JdbcTableLock::Open(cluster_->conninfo(), options);
    EXPECT_TRUE(l.ok()) << l.status().ToString();
    return l.ok() ? std::move(*l) : nullptr;
  }
  Status Exec(const std::string& sql) {
    Result<std::unique_ptr<PgConnection>> conn = PgConnection::Connect(cluster_->conninfo());
    if (!conn.ok()) return conn.status();
    return (*conn)->Exec(sql).status();
  }

  std::unique_ptr<PgCluster> cluster_;
  test::TestEnv env_;  // virtual time: the waits between tries cost nothing
};

TEST_F(JdbcLockTest, OneHolderAtATimeAndAWaiterGivesUpAtItsTimeout) {
  std::unique_ptr<JdbcTableLock> a = Open();
  std::unique_ptr<JdbcTableLock> b = Open({.check_max_sleep_micros = 8'000'000, .acquire_timeout_micros = 1'000'000});
  ASSERT_TRUE(a->Acquire(&env_).ok());
  const int64_t start = env_.NowMicros();
  Status st = b->Acquire(&env_);
  EXPECT_EQ(st.code(), Code::kIOError);
  EXPECT_THAT(st.message(), StartsWith("Acquire lock failed with time: PT1.5S"));  // 100+200+400+800 ms
  EXPECT_EQ(env_.NowMicros() - start, 1'500'000);
  ASSERT_TRUE(a->Release().ok());
  EXPECT_TRUE(b->Acquire(&env_).ok());
}

TEST_F(JdbcLockTest, AHolderWhoseRowExpiredLosesTheLock) {
  std::unique_ptr<JdbcTableLock> a = Open(), b = Open({.acquire_timeout_micros = 1'000'000});
  ASSERT_TRUE(a->Acquire(&env_).ok());
  // As if a's process had died an hour ago holding it: the row is older than its expiry.
  ASSERT_TRUE(Exec("UPDATE paimon_distributed_locks SET acquired_at = NOW() - INTERVAL '1 hour'").ok());
  const int64_t start = env_.NowMicros();
  EXPECT_TRUE(b->Acquire(&env_).ok());
  EXPECT_EQ(env_.NowMicros(), start);  // at the first try
}

TEST_F(JdbcLockTest, AnObjectStoreRenameUnderThePostgresLockLosesNoCommit) {
  // A 1 ms round trip between the HEAD and the PUT of snapshot-N: without a lock, two writers can
  // both see N absent and the second PUT replaces the first.
  sim::RealEnv env(5, nullptr, *sim::ParseLatencyModel("publish=const:0.5"));
  std::unique_ptr<JdbcTableLock> lock = Open({.check_max_sleep_micros = 5'000});
  ObjectStore store(&env, {.mode = PublishMode::kLocked, .lock = lock.get()});
  constexpr int kWriters = 4, kPublishes = 8;
  std::atomic<int> published{0}, errors{0};
  std::vector<sim::RealEnv::Writer> writers;
  for (int i = 0; i < kWriters; ++i) {
    writers.push_back({"w" + std::to_string(i), [&] {
                         for (int done = 0; done < kPublishes;) {
                           Result<SnapshotRef> latest = store.LatestSnapshotRef();
                           if (!latest.ok()) return;
                           Snapshot s;
                           s.id = (*latest ? (*latest)->id : 0) + 1;
                           env.BeginStorageOp(StorageOp::kPublish);
                           PublishResult r = store.Publish(s);
                           env.EndStorageOp(StorageOp::kPublish);
                           if (r.outcome == PublishOutcome::kPublished) ++done, ++published;
                           if (r.outcome == PublishOutcome::kError) return void(++errors);
                         }
                       }});
  }
  ASSERT_TRUE(env.RunThreads(std::move(writers)).ok());
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(published.load(), kWriters * kPublishes);
  EXPECT_TRUE(store.Overwritten().empty()) << store.Overwritten().size() << " commits silently replaced";
  Result<SnapshotRef> last = store.LatestSnapshotRef();
  ASSERT_TRUE(last.ok() && *last);
  EXPECT_EQ((*last)->id, kWriters * kPublishes);
}

}  // namespace
}  // namespace commitlab::catalogs
