#include "commitlab/core/paimon/object_store.h"

#include <fmt/format.h>

#include <algorithm>

#include "commitlab/core/check.h"

namespace commitlab {

std::string_view PublishModeName(PublishMode m) {
  switch (m) {
    case PublishMode::kCheckThenPut: return "check-then-put";
    case PublishMode::kLocked: return "locked";
    case PublishMode::kConditionalPut: return "conditional-put";
  }
  return "?";
}

std::optional<PublishMode> ParsePublishMode(std::string_view s) {
  for (PublishMode m : {PublishMode::kCheckThenPut, PublishMode::kLocked, PublishMode::kConditionalPut})
    if (PublishModeName(m) == s) return m;
  return std::nullopt;
}

ObjectStore::ObjectStore(Env* env, ObjectStoreOptions options) : env_(env), options_(options) {}

PublishResult ObjectStore::Publish(const Snapshot& s) {
  switch (options_.mode) {
    case PublishMode::kConditionalPut: return MemoryStore::Publish(s);
    case PublishMode::kCheckThenPut: return CheckThenPut(s);
    case PublishMode::kLocked: break;
  }
  if (options_.lock != nullptr) {
    // runWithLock: a lock that cannot be taken is an error before any write, which the committer
    // cannot tell from a failed PUT.
    if (Status st = options_.lock->Acquire(env_); !st.ok()) return {PublishOutcome::kError, std::move(st)};
    PublishResult r = CheckThenPut(s);
    // A release that fails leaves the row to expire (expire_time_seconds): the publish stands.
    (void)options_.lock->Release();
    return r;
  }
  if (!AcquireLock())
    return {PublishOutcome::kError,
            Status::IOError(fmt::format("Timed out after {} ms waiting for the table lock to commit snapshot-{}.",
                                        options_.lock_timeout_micros / 1000, s.id))};
  PublishResult r = CheckThenPut(s);
  ReleaseLock();
  return r;
}

PublishResult ObjectStore::CheckThenPut(const Snapshot& s) {
  COMMITLAB_CHECK(options_.mode != PublishMode::kLocked || options_.lock != nullptr ||
                      locked_.load(std::memory_order_relaxed),
                  "in locked mode the HEAD and the PUT run under the table lock (Paimon's runWithLock)");
  {
    MutexLock lock(&mu_);
    const auto next = static_cast<int64_t>(snapshots_.size()) + 1;
    if (s.id < next) return {PublishOutcome::kAlreadyExists, Status::OK()};
    if (s.id > next)
      return {PublishOutcome::kError,
              Status::InvalidArgument(fmt::format("snapshot-{} would leave a gap after snapshot-{}", s.id, next - 1))};
  }
  // HEAD answered "absent"; the PUT is a new request, and anything may happen in between.
  env_->EndStorageOp(StorageOp::kPublish);
  env_->BeginStorageOp(StorageOp::kPublish);
  MutexLock lock(&mu_);
  const auto size = static_cast<int64_t>(snapshots_.size());
  COMMITLAB_CHECK(s.id > size || options_.mode == PublishMode::kCheckThenPut || options_.lock != nullptr,
                  "under this store's own lock no PUT replaces a snapshot: its HEAD and PUT are one step");
  if (s.id <= size) overwritten_.push_back(*snapshots_[static_cast<size_t>(s.id - 1)]);
  PutLocked(s);
  return {PublishOutcome::kPublished, Status::OK()};
}

bool ObjectStore::AcquireLock() {
  int64_t waited = 0;
  for (;;) {
    bool expected = false;
    if (locked_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return true;
    if (options_.lock_timeout_micros >= 0 && waited >= options_.lock_timeout_micros) return false;
    env_->SleepMicros(options_.lock_retry_micros);
    waited += std::max<int64_t>(options_.lock_retry_micros, 1);  // a zero wait still times out
  }
}

void ObjectStore::ReleaseLock() {
  const bool held = locked_.exchange(false, std::memory_order_release);
  COMMITLAB_CHECK(held, "the table lock is released only while held: a stray release would let two writers in");
}

std::vector<Snapshot> ObjectStore::Overwritten() {
  MutexLock lock(&mu_);
  return overwritten_;
}

}  // namespace commitlab
