// ObjectStore: a MemoryStore whose Publish is an object store's "rename", in one of three modes.
//
//   kCheckThenPut    HEAD snapshot-N, then (a separate round trip later) PUT snapshot-N. Not
//                    atomic: two writers can both see N absent and both PUT; the second PUT
//                    silently replaces the first, both writers are told they published N, and one
//                    commit is gone. This is Paimon's RenamingSnapshotCommit on S3/OSS without a
//                    lock (S2 第 5 讲's warning, docs/lectures.md#s2-5-details; Paimon issues #5762
//                    and #8226).
//   kLocked          the same HEAD and PUT with a table lock held across both (Paimon's
//                    lock.enabled with a Hive or JDBC catalog lock): the second writer's HEAD
//                    sees N and it loses the race.
//   kConditionalPut  one PUT with If-None-Match / x-oss-forbid-overwrite (Paimon PR #8228): atomic.
//
// The gap between HEAD and PUT is made visible to a simulator: Publish ends the first round trip
// and starts a second one in between (env->EndStorageOp(kPublish); env->BeginStorageOp(kPublish)),
// inside the committer's own Begin/EndStorageOp(kPublish) pair, so other writers may act there.
// kConditionalPut makes one round trip, like MemoryStore.
//
// The lock is a flag, not a mutex held across the gap: on the simulator every writer shares one
// OS thread (a mutex would be locked twice by the same thread), and a writer that finds it
// taken waits by env->SleepMicros(lock_retry_micros), which yields to the simulator and really
// sleeps on threads. Safe for any number of threads.
#ifndef COMMITLAB_CORE_OBJECT_STORE_H_
#define COMMITLAB_CORE_OBJECT_STORE_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/core/paimon/table_lock.h"

namespace commitlab {

enum class PublishMode { kCheckThenPut, kLocked, kConditionalPut };
std::string_view PublishModeName(PublishMode m);  // "check-then-put", "locked", "conditional-put"
std::optional<PublishMode> ParsePublishMode(std::string_view s);

struct ObjectStoreOptions {
  PublishMode mode = PublishMode::kCheckThenPut;
  int64_t lock_retry_micros = 100;  // wait between tries of a taken lock
  // Paimon's lock.acquire-timeout (8 min); < 0 waits forever. A timeout is a publish error: the
  // committer cannot tell it from a failed PUT and treats the outcome as unknown.
  int64_t lock_timeout_micros = 8 * 60 * 1'000'000LL;
  // kLocked: the catalog's lock (not owned; it keeps its own retry and timeout), e.g. one in
  // PostgreSQL that writers in other processes share. Null: the flag described above.
  TableLock* lock = nullptr;
};

class ObjectStore : public MemoryStore {
 public:
  // `env` (not owned) is the writers' Env: the store marks its round trips and waits through it.
  explicit ObjectStore(Env* env, ObjectStoreOptions options = {});

  PublishResult Publish(const Snapshot& s) override;

  // Snapshots that a later PUT replaced, oldest first: commits lost to kCheckThenPut. Always empty
  // in the other modes.
  std::vector<Snapshot> Overwritten();
  const ObjectStoreOptions& options() const { return options_; }

 private:
  // HEAD, the gap, then PUT; REQUIRES: the lock held in kLocked mode.
  PublishResult CheckThenPut(const Snapshot& s);
  bool AcquireLock();  // false after lock_timeout_micros
  void ReleaseLock();

  Env* const env_;
  const ObjectStoreOptions options_;
  std::atomic<bool> locked_{false};
  std::vector<Snapshot> overwritten_ GUARDED_BY(mu_);
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_OBJECT_STORE_H_
