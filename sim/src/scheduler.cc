#include "commitlab/sim/scheduler.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/fiber.h"

namespace commitlab::sim {

struct Scheduler::Fibers {
  std::deque<Fiber> all;  // a deque: elements stay put as it grows
};

Scheduler::Scheduler(std::unique_ptr<Strategy> strategy, uint64_t seed)
    : seed_(seed), rng_(seed), strategy_(std::move(strategy)), fibers_(std::make_unique<Fibers>()) {}

// Out of line: Fiber is incomplete in the header.
Scheduler::~Scheduler() = default;

int Scheduler::AddWriter(std::string name, std::function<void()> body) {
  if (ran_) return -1;
  writers_.push_back(
      {std::move(name), &fibers_->all.emplace_back(std::move(body)), false, false, false, StepAccess::kLocal});
  ready_.push_back(num_writers() - 1);  // runnable at time 0; indices ascend
  schedule_.writers = num_writers();
  return num_writers() - 1;
}

std::string_view Scheduler::current_name() const {
  return current_ < 0 ? std::string_view() : std::string_view(writers_[static_cast<size_t>(current_)].name);
}

Status Scheduler::Run() {
  if (ran_) return Status::InvalidArgument("Scheduler::Run may be called only once");
  ran_ = true;
  std::vector<std::string> names;
  names.reserve(writers_.size());
  for (const Writer& w : writers_) names.push_back(w.name);
  COMMITLAB_RETURN_IF_ERROR(strategy_->Start(names, rng_.Next()));
  alone_is_trivial_ = strategy_->PicksALoneWriterWithoutState();

  int next = NextWriter();
  while (next >= 0) {
    current_ = next;
    // Writers hand over to each other directly (Reschedule); control comes back here only when
    // the running one finishes, and current_ says which that is.
    writers_[static_cast<size_t>(next)].fiber->Resume();
    const int finished = current_;
    Writer& w = writers_[static_cast<size_t>(finished)];
    COMMITLAB_CHECK(w.fiber->finished() && Fiber::last_returned() == w.fiber,
                    "control returns to Run() only when the running writer's fiber has finished");
    COMMITLAB_CHECK(!w.blocked, "a finished writer is not blocked");
    w.done = true;
    w.fiber->ReleaseBody();  // what the body captured goes now, as the writer ends
    RemoveReady(finished);
    current_ = -1;
    next = NextWriter();
  }
  current_ = -1;
  if (!diverged_.ok()) return diverged_;
  if (!deadlock_.ok()) return deadlock_;
  return strategy_->Finish(steps_);
}

void Scheduler::Yield() {
  if (current_ >= 0) Reschedule();
}

void Scheduler::SleepUntil(int64_t wake_micros) {
  if (current_ < 0) {
    now_ = std::max(now_, wake_micros);
    return;
  }
  const int64_t wake = std::max(now_, wake_micros);
  if (wake > now_ && !untimed_) {
    RemoveReady(current_);
    const WakeQueue::Entry self{wake, current_};
    if (!ready_.empty()) {
      sleepers_.Push(self);
    } else if (sleepers_.empty() || wake < sleepers_.earliest().wake_micros) {
      // Nobody can run now and we are due strictly first: NextWriter would jump the clock to us
      // and take us straight back out of the queue. Skip the round trip.
      now_ = wake;
      ready_.push_back(current_);
    } else {
      // Nobody can run now and another sleeper is due first (or with us): NextWriter would jump
      // the clock to it and pop it. Do that here, swapping ourselves in for it in one sift.
      const WakeQueue::Entry first = sleepers_.earliest();
      now_ = first.wake_micros;
      sleepers_.ReplaceEarliest(self);
      ready_.push_back(first.writer);
    }
  }
  Reschedule();
}

Status Scheduler::Block() {
  if (current_ < 0) return Status::InvalidArgument("Scheduler::Block called outside a writer");
  if (!deadlock_.ok()) return deadlock_;
  writers_[static_cast<size_t>(current_)].blocked = true;
  set_next_access(StepAccess::kLocal);  // woken, it goes on with its own bookkeeping
  RemoveReady(current_);
  Reschedule();
  // Picked again: another writer unblocked us, or a deadlock released everyone.
  return deadlock_;
}

void Scheduler::set_next_access(StepAccess access) {
  if (current_ < 0) return;
  Writer& w = writers_[static_cast<size_t>(current_)];
  w.next = w.opaque ? StepAccess::kOpaque : access;
}

void Scheduler::set_opaque(bool on) {
  if (current_ < 0) return;
  Writer& w = writers_[static_cast<size_t>(current_)];
  w.opaque = on;
  if (on) w.next = StepAccess::kOpaque;
}

void Scheduler::OpaqueStep(StepAccess access) {
  if (current_ < 0) return;
  set_next_access(access);
  if (untimed_) Yield();
}

void Scheduler::Unblock(int writer) {
  if (writer < 0 || writer >= num_writers()) return;
  Writer& w = writers_[static_cast<size_t>(writer)];
  if (!w.blocked || w.done) return;
  w.blocked = false;
  AddReady(writer);  // it blocked at or before now
}

void Scheduler::AddReady(int writer) {
  COMMITLAB_DCHECK(!std::binary_search(ready_.begin(), ready_.end(), writer), "a writer is in the ready list once");
  if (ready_.empty() || ready_.back() < writer) {
    ready_.push_back(writer);
  } else {
    ready_.insert(std::upper_bound(ready_.begin(), ready_.end(), writer), writer);
  }
}

void Scheduler::RemoveReadySearched(int writer) {
  const auto it = std::lower_bound(ready_.begin(), ready_.end(), writer);
  COMMITLAB_CHECK(it != ready_.end() && *it == writer, "only a runnable writer leaves the ready list");
  ready_.erase(it);
}

void Scheduler::BreakDeadlock() {
  std::string names;
  for (Writer& w : writers_) {
    if (w.done || !w.blocked) continue;
    names += (names.empty() ? "" : ", ") + w.name;
    w.blocked = false;
    ready_.push_back(static_cast<int>(&w - writers_.data()));  // ready_ was empty; indices ascend
  }
  deadlock_ = Status::InvalidArgument(
      fmt::format("deadlock: every unfinished writer is blocked waiting for another: {}", names));
}

void Scheduler::Reschedule() {
  const int self = current_;
  COMMITLAB_CHECK(self >= 0, "a scheduling point is reached only from inside a writer");
  const int next = NextWriter();
  COMMITLAB_CHECK(next >= 0, "a writer that has not finished keeps the run going");
  if (next == self) return;  // keeps running: no switch at all
  current_ = next;
  // Straight to the next writer's stack: one switch, not two through Run().
  writers_[static_cast<size_t>(self)].fiber->SwitchTo(*writers_[static_cast<size_t>(next)].fiber);
  // Another writer handed over to us (and set current_): we were picked, our wake-up time has come.
}

int Scheduler::NextWriter() {
  // Nobody can run now: the clock jumps to the earliest wake-up, and everyone due then is ready.
  if (ready_.empty() && !sleepers_.empty()) now_ = std::max(now_, sleepers_.earliest().wake_micros);
  while (!sleepers_.empty() && sleepers_.earliest().wake_micros <= now_) {
    const int w = sleepers_.earliest().writer;
    COMMITLAB_DCHECK(!writers_[static_cast<size_t>(w)].done && !writers_[static_cast<size_t>(w)].blocked,
                     "a sleeper is neither finished nor blocked");
    sleepers_.PopEarliest();
    AddReady(w);
  }
  if (ready_.empty()) {
    // Nobody runnable and nobody asleep: finished, or blocked with nobody left to unblock them.
    bool any_blocked = false;
    for (const Writer& w : writers_) any_blocked = any_blocked || (!w.done && w.blocked);
    if (!any_blocked) return -1;
    BreakDeadlock();
  }
  const std::vector<int>& runnable = ready_;

  const uint64_t draw = rng_.Next();  // every step draws once, whoever picks
  int pick = -1;
  if (runnable.size() == 1 && alone_is_trivial_ && diverged_.ok()) {
    pick = runnable.front();  // what the strategy would say, without the call (a sweep's usual step)
  } else {
    const SchedulePoint point{steps_, last_, runnable, draw, this};
    if (diverged_.ok()) {
      Result<int> r = strategy_->Pick(point);
      if (!r.ok()) {
        diverged_ = r.status();
      } else if (!std::binary_search(runnable.begin(), runnable.end(), *r)) {
        diverged_ = Status::InvalidArgument(fmt::format("strategy {} picked writer {} at step {}, which cannot run",
                                                        strategy_->Describe(), *r, steps_));
      } else {
        pick = *r;
      }
      if (!diverged_.ok()) fallback_ = MakeRoundRobinStrategy();
    }
    if (pick < 0) pick = *fallback_->Pick(point);
  }
  COMMITLAB_DCHECK(std::binary_search(runnable.begin(), runnable.end(), pick), "the picked writer can run");

  if (record_schedule_) schedule_.Append(pick);
  ++steps_;
  last_ = pick;
  if (steps_ > step_limit_ || now_ > clock_limit_) [[unlikely]]
    CheckBudget();
  return pick;
}

void Scheduler::CheckBudget() {
  step_limit_ = clock_limit_ = kNoLimit;  // the verdict is given once
  if (max_steps_ > 0 && steps_ > max_steps_) {
    budget_verdict_ = fmt::format("gave up after {} steps (the --max-steps budget)", max_steps_);
  } else if (max_virtual_micros_ > 0 && now_ > max_virtual_micros_) {
    budget_verdict_ = fmt::format("gave up after {} of virtual time (the --max-virtual-time budget)",
                                  FormatDurationMicros(max_virtual_micros_));
  } else {
    return;
  }
  for (int i = 0; i < num_writers(); ++i)
    if (!writers_[static_cast<size_t>(i)].done) over_budget_running_.push_back(i);
}

}  // namespace commitlab::sim
