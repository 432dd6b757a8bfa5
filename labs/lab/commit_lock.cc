#include "lab/commit_lock.h"

#include <algorithm>

namespace commitlab::cli {

void CommitLock::Before(size_t writer, Effect effect) {
  // A commit begins with a read of the latest snapshot; its holder's later reads (a retry's, the
  // idempotency scan's) happen under the lock it holds.
  if (effect != Effect::kRead || holder_ == writer || scheduler_ == nullptr) return;
  const int64_t since = scheduler_->now_micros();
  if (holder_ != kNobody) ++waits_;
  while (holder_ != kNobody) {
    waiting_.push_back(writer);
    if (!scheduler_->Block().ok()) return;  // a deadlock the scheduler reports: the run says so
  }
  holder_ = writer;
  waited_ += scheduler_->now_micros() - since;
}

void CommitLock::After(size_t writer, Effect effect, int64_t, PublishOutcome) {
  // Whatever the publish's outcome, the commit is over for the lock.
  if (effect != Effect::kPublish || holder_ != writer || scheduler_ == nullptr) return;
  holder_ = kNobody;
  for (size_t w : waiting_) scheduler_->Unblock(static_cast<int>(w));
  waiting_.clear();
}

}  // namespace commitlab::cli
