// Brooker's experiment against an unlimited store as an event loop: each writer is a small state
// machine, the sleepers a PackedWakeQueue, and nothing else runs. It is the committer path of
// RunBrookerThroughCommitter (sweep_run.cc: Paimon's Committer on fibers, under SweepEnv and the
// Scheduler) with everything that path does not need taken out, and it reproduces that path
// draw for draw and step for step, so their RunOutcomes are equal (sweep_test.cc compares them
// over writer counts, policies, latency models and seeds; the golden sweeps were recorded through
// the committer). What each piece mirrors:
//
//   the clock, ready list and steps   Scheduler::SleepUntil, NextWriter, Run (one draw per step;
//                                     the random strategy picks runnable[draw % n])
//   a writer's pending time           SweepEnv: every delay is deferred, and slept off in one
//                                     piece right before the read-latest and the publish
//   an attempt                        Committer::TryCommit / TryCommitOnce / WriteAndPublish with
//                                     the idempotency check and conflict detection off: fault
//                                     point, read the latest snapshot, manifest (its name's uuid
//                                     drawn at the committer's first attempt), fault point,
//                                     publish snapshot latest+1 if absent, fault point if it landed
//   giving up and the wait            TryCommit's retry limit and total timeout, NextWaitMicros
//   the step budget                   WritersRun's RunStepBudget, failing the next fault point
//                                     (SweepEnv::FaultPoint) as a crash once the run is past it
//
// A change to any of those must be made here too; the equality test says when it was not. A run
// whose clock would pass what the packed heap holds (PackedWakeQueue::fits: 17 years) is run
// through the committer instead.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/sweep.h"
#include "packed_wake_queue.h"

namespace commitlab::sim {
namespace {

// Where a writer resumes: before its first attempt, when its read-latest request arrives, or when
// its publish request arrives.
enum class Phase { kStart, kReadArrives, kPublishArrives };

struct BrookerWriter {
  Phase phase = Phase::kStart;
  int64_t pending = 0;      // deferred time not yet slept off (SweepEnv's pending_micros_)
  int64_t start = 0;        // when Commit() was called
  int64_t latest_seen = 0;  // the latest snapshot id its read returned
  int64_t prev_wait = 0;    // TryCommit's prev_wait
  int retry = 0;            // TryCommit's retry: failed attempts so far
  bool named = false;       // its manifest name's uuid has been drawn
  bool landed = false;
  bool gave_up = false;
  int64_t last_success = 0;  // WriterTally's fields
  int64_t stopped = 0;
};

class BrookerLoop {
 public:
  BrookerLoop(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency)
      : policy_(policy),
        latency_(latency),
        rng_(seed),
        writers_(static_cast<size_t>(writers)),
        sleepers_(writers),
        step_limit_(std::max<int64_t>(4'000'000, 64 * int64_t{writers} * writers)) {
    ready_.reserve(static_cast<size_t>(writers));
    for (int i = 0; i < writers; ++i) ready_.push_back(i);
    latencies_.reserve(static_cast<size_t>(writers));
  }

  // nullopt: the clock would pass what the heap holds (see the file comment).
  std::optional<RunOutcome> Run() {
    rng_.Next();  // the strategy's set-up draw (Scheduler::Run)
    for (int w = NextWriter(); w >= 0;) {
      BrookerWriter& bw = writers_[static_cast<size_t>(w)];
      if (Advance(bw)) {
        w = SleepUntil(w, std::exchange(bw.pending, 0));
      } else {
        RemoveReady(w);  // its fiber ended (Scheduler::Run)
        w = NextWriter();
      }
    }
    if (overflowed_) return std::nullopt;
    return Outcome();
  }

 private:
  // Runs the writer from where it resumed to its next scheduling point (true: it sleeps off
  // bw.pending there) or its end (false).
  bool Advance(BrookerWriter& bw) {
    switch (bw.phase) {
      case Phase::kStart:
        bw.start = now_;  // NowMicros(): nothing is pending yet
        return BeginAttempt(bw);
      case Phase::kReadArrives:
        bw.latest_seen = published_;
        Defer(bw, latency_.ResponseMicros(StorageOp::kReadLatest, rng_));
        ++calls_;                                               // Committer::StartAttempt
        if (over_budget()) return Stop(bw, /*gave_up=*/false);  // manifest.before
        if (!bw.named) {
          rng_.Next();  // AppendRandomUuid: two words, once per committer
          rng_.Next();
          bw.named = true;
        }
        Defer(bw, latency_.RequestMicros(StorageOp::kWriteManifest, rng_));
        Defer(bw, latency_.ResponseMicros(StorageOp::kWriteManifest, rng_));
        if (over_budget()) return Stop(bw, /*gave_up=*/false);  // publish.before
        Defer(bw, latency_.RequestMicros(StorageOp::kPublish, rng_));
        bw.phase = Phase::kPublishArrives;
        return true;
      case Phase::kPublishArrives: return PublishArrives(bw);
    }
    return false;
  }

  // The top of TryCommit's loop: the read-latest fault point, then the request's hop.
  bool BeginAttempt(BrookerWriter& bw) {
    if (over_budget()) return Stop(bw, /*gave_up=*/false);
    Defer(bw, latency_.RequestMicros(StorageOp::kReadLatest, rng_));
    bw.phase = Phase::kReadArrives;
    return true;
  }

  // Snapshot latest+1 is published if absent (MemoryStore::Publish); then the response, and
  // success, or the retry limit and the wait (TryCommit).
  bool PublishArrives(BrookerWriter& bw) {
    const bool landed = published_ == bw.latest_seen;
    if (landed) ++published_;
    Defer(bw, latency_.ResponseMicros(StorageOp::kPublish, rng_));
    if (landed) {
      if (over_budget()) return Stop(bw, /*gave_up=*/false);  // publish.after: a crash, though it landed
      bw.landed = true;
      bw.last_success = now_ + bw.pending;
      latencies_.push_back(bw.last_success - bw.start);
      return Stop(bw, /*gave_up=*/false);
    }
    const int64_t elapsed = now_ + bw.pending - bw.start;
    const bool timed_out = policy_.total_timeout_micros >= 0 && elapsed > policy_.total_timeout_micros;
    if (timed_out || (policy_.max_retries >= 0 && bw.retry >= policy_.max_retries)) return Stop(bw, /*gave_up=*/true);
    const int64_t wait = NextWaitMicros(policy_, bw.retry + 1, bw.prev_wait, rng_);
    Defer(bw, wait);
    bw.prev_wait = wait;
    ++bw.retry;
    return BeginAttempt(bw);
  }

  bool Stop(BrookerWriter& bw, bool gave_up) {
    bw.gave_up = gave_up;
    bw.stopped = now_ + bw.pending;
    return false;
  }

  static void Defer(BrookerWriter& bw, int64_t micros) {
    if (micros > 0) bw.pending += micros;
  }

  // SweepEnv::FaultPoint past the step budget (Scheduler::CheckBudget's verdict).
  bool over_budget() const { return steps_ > step_limit_; }

  // Scheduler::SleepUntil(now + micros) by the running writer `w`, then its NextWriter().
  int SleepUntil(int w, int64_t micros) {
    const int64_t room = std::numeric_limits<int64_t>::max() - now_;
    const int64_t wake = micros <= 0 ? now_ : now_ + std::min(micros, room);
    if (wake > now_) {
      if (!sleepers_.fits(wake)) {
        overflowed_ = true;
        return -1;
      }
      RemoveReady(w);
      const WakeQueue::Entry self{wake, w};
      if (!ready_.empty()) {
        sleepers_.Push(self);
      } else if (sleepers_.empty() || wake < sleepers_.earliest_wake()) {
        now_ = wake;
        ready_.push_back(w);
      } else {
        const WakeQueue::Entry first = sleepers_.earliest();
        now_ = first.wake_micros;
        sleepers_.ReplaceEarliest(self);
        ready_.push_back(first.writer);
      }
    }
    return NextWriter();
  }

  // Scheduler::NextWriter under the random strategy: -1 once every writer has ended.
  [[gnu::always_inline]] int NextWriter() {
    if (ready_.empty() && !sleepers_.empty()) now_ = std::max(now_, sleepers_.earliest_wake());
    while (!sleepers_.empty() && sleepers_.earliest_wake() <= now_) {
      const int w = sleepers_.earliest().writer;
      sleepers_.PopEarliest();
      ready_.insert(std::upper_bound(ready_.begin(), ready_.end(), w), w);
    }
    if (ready_.empty()) return -1;
    const uint64_t draw = rng_.Next();
    ++steps_;
    return ready_.size() == 1 ? ready_.front() : ready_[draw % ready_.size()];
  }

  void RemoveReady(int w) {
    if (ready_.size() == 1) {
      ready_.clear();  // the usual case: it was the one
    } else {
      ready_.erase(std::lower_bound(ready_.begin(), ready_.end(), w));
    }
  }

  // WritersRun::Run's tally.
  RunOutcome Outcome() {
    RunOutcome out;
    out.calls = calls_;
    for (const BrookerWriter& bw : writers_) {
      out.commits_ok += bw.landed ? 1 : 0;
      out.gave_up += bw.gave_up ? 1 : 0;
      out.finish_micros = std::max(out.finish_micros, bw.stopped);
      out.completion_micros = std::max(out.completion_micros, bw.last_success);
    }
    if (over_budget())
      out.status = Status::RetriesExhausted(
          fmt::format("a sweep run of {} writers was stopped after {} scheduler steps with commits still unlanded: "
                      "one that never lands?",
                      writers_.size(), step_limit_));
    out.latencies_micros = std::move(latencies_);
    return out;
  }

  const RetryPolicy policy_;
  const LatencyModel& latency_;
  Rng rng_;
  std::vector<BrookerWriter> writers_;
  std::vector<int> ready_;  // runnable now, ascending (Scheduler::ready_)
  internal::PackedWakeQueue sleepers_;
  std::vector<int64_t> latencies_;
  int64_t now_ = 0;
  int64_t steps_ = 0;
  const int64_t step_limit_;
  int64_t published_ = 0;  // the latest snapshot id
  int64_t calls_ = 0;
  bool overflowed_ = false;
};

}  // namespace

RunOutcome RunBrookerLoop(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency) {
  if (std::optional<RunOutcome> r = BrookerLoop(writers, policy, seed, latency).Run()) return *std::move(r);
  return RunBrookerThroughCommitter(writers, policy, seed, latency);
}

}  // namespace commitlab::sim
