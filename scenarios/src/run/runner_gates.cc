#include "run/runner_gates.h"

#include <fmt/format.h>

#include <optional>
#include <set>

#include "commitlab/core/mutex.h"

namespace commitlab::scenarios::internal {
namespace {

std::string LineOf(const Scenario& s, SourcePos pos) { return s.Where({pos.line, 0}); }

std::string StepLine(const Scenario& s, StepRef r) { return LineOf(s, s.writers[r.writer].steps[r.step].pos); }

}  // namespace

GateBook::GateBook(const Scenario& s) : s_(s), stopped_(s.writers.size()) {
  for (const Writer& w : s.writers) steps_.emplace_back(w.steps.size(), StepState::kPending);
  for (const OrderEdge& e : s.order) {
    into_[{e.after.writer, e.after.step, e.after_publish}].push_back(&e);
    if (e.before_publish) publish_sources_.insert({e.before.writer, e.before.step});
  }
}

GateBook::Verdict GateBook::Check(size_t writer, size_t step, bool publish) const {
  auto it = into_.find({writer, step, publish});
  if (it == into_.end()) return {};
  Verdict wait;
  for (const OrderEdge* e : it->second) {
    const StepState state = steps_[e->before.writer][e->before.step];
    if (state == StepState::kNever) return {State::kBroken, e};
    // A step that finished without publishing (refused before) has passed its point too.
    const bool holds = state == StepState::kFinished || (e->before_publish && state == StepState::kArrived);
    if (!holds && wait.edge == nullptr) wait = {State::kWait, e};
  }
  return wait;
}

bool GateBook::Arrived(size_t writer, size_t step) {
  if (steps_[writer][step] == StepState::kPending) steps_[writer][step] = StepState::kArrived;
  return publish_sources_.count({writer, step}) != 0;
}

void GateBook::Finished(size_t writer, size_t step) { steps_[writer][step] = StepState::kFinished; }

void GateBook::Skipped(size_t writer, size_t step) { steps_[writer][step] = StepState::kNever; }

void GateBook::Stopped(size_t writer, std::string why) {
  for (StepState& st : steps_[writer])
    if (st == StepState::kPending) st = StepState::kNever;
  stopped_[writer] = std::move(why);
}

std::string GateBook::BrokenMessage(const OrderEdge& e) const {
  const std::string& before = s_.writers[e.before.writer].name;
  const std::string& why = stopped_[e.before.writer];
  return fmt::format("{}: order {} can never hold: {} {} before it {} {}, so {} cannot {} {}", LineOf(s_, e.pos),
                     e.text, before, why.empty() ? "crashed and skipped that step on the way to its restart" : why,
                     e.before_publish ? "reached the publish of" : "finished", StepLine(s_, e.before),
                     s_.writers[e.after.writer].name, e.after_publish ? "publish at" : "start", StepLine(s_, e.after));
}

std::string GateBook::WaitingMessage(const OrderEdge& e) const {
  return fmt::format("{}: order {}: {} waits at {}{} for {} to {} {}", LineOf(s_, e.pos), e.text,
                     s_.writers[e.after.writer].name, e.after_publish ? "the publish of " : "", StepLine(s_, e.after),
                     s_.writers[e.before.writer].name, e.before_publish ? "reach the publish of" : "finish",
                     StepLine(s_, e.before));
}

namespace {

// Simulated writers run one at a time on the scheduler's thread: no locking. A waiting writer
// blocks in the scheduler, and the writer it waits for unblocks it whenever it makes progress.
class SimGates final : public Gates {
 public:
  SimGates(const Scenario& s, sim::Scheduler* scheduler)
      : book_(s), scheduler_(scheduler), waiting_for_(s.writers.size(), kNone) {}

  Status WaitToStart(size_t writer, size_t step) override { return Wait(writer, step, false); }
  Status WaitAtPublish(size_t writer, size_t step) override {
    if (book_.Arrived(writer, step)) Wake(writer);
    return Wait(writer, step, true);
  }
  Status Wait(size_t writer, size_t step, bool publish) {
    const OrderEdge* waited = nullptr;
    for (;;) {
      const GateBook::Verdict v = book_.Check(writer, step, publish);
      if (v.state == GateBook::State::kOpen) {
        if (waited != nullptr && observer_) observer_(writer, *waited, true);
        return Status::OK();
      }
      if (v.state == GateBook::State::kBroken) return Status::InvalidArgument(book_.BrokenMessage(*v.edge));
      if (v.edge != waited && observer_) observer_(writer, *v.edge, false);
      waited = v.edge;
      waiting_for_[writer] = v.edge->before.writer;
      Status st = scheduler_->Block();
      waiting_for_[writer] = kNone;
      if (!st.ok()) {
        deadlocked_ = true;
        return Status::InvalidArgument(fmt::format("{}; {}", book_.WaitingMessage(*v.edge), st.message()));
      }
    }
  }
  void Finished(size_t writer, size_t step) override {
    book_.Finished(writer, step);
    Wake(writer);
  }
  void Skipped(size_t writer, size_t step) override {
    book_.Skipped(writer, step);
    Wake(writer);
  }
  void Stopped(size_t writer, std::string why) override {
    book_.Stopped(writer, std::move(why));
    Wake(writer);
  }
  bool deadlocked() const override { return deadlocked_; }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);

  // Unblocks the writers waiting for `writer`; each checks its gate again when it runs.
  void Wake(size_t writer) {
    for (size_t w = 0; w < waiting_for_.size(); ++w)
      if (waiting_for_[w] == writer) scheduler_->Unblock(static_cast<int>(w));
  }

  GateBook book_;
  sim::Scheduler* const scheduler_;
  std::vector<size_t> waiting_for_;  // per writer: the writer it waits for, or kNone
  bool deadlocked_ = false;
};

// OS threads: one mutex and condition variable for all gates (RocksDB's SyncPoint does the same).
class ThreadGates final : public Gates {
 public:
  explicit ThreadGates(const Scenario& s) : book_(s), unfinished_(s.writers.size()) {}

  Status WaitToStart(size_t writer, size_t step) override {
    MutexLock lock(&mu_);
    return Wait(writer, step, false);
  }
  Status WaitAtPublish(size_t writer, size_t step) override {
    MutexLock lock(&mu_);
    if (book_.Arrived(writer, step)) cv_.SignalAll();
    return Wait(writer, step, true);
  }
  Status Wait(size_t writer, size_t step, bool publish) REQUIRES(mu_) {
    const OrderEdge* waited = nullptr;
    for (;;) {
      const GateBook::Verdict v = book_.Check(writer, step, publish);
      if (v.state == GateBook::State::kOpen) {
        if (waited != nullptr && observer_) observer_(writer, *waited, true);
        return Status::OK();
      }
      if (v.state == GateBook::State::kWait && v.edge != waited) {
        if (observer_) observer_(writer, *v.edge, false);
        waited = v.edge;
      }
      // After a deadlock every waiter fails with it, as in the simulator, even if a writer that
      // stopped because of it broke this gate meanwhile.
      if (deadlock_.empty() && v.state == GateBook::State::kWait && EveryoneElseWaits(writer)) DeclareDeadlock(writer);
      if (!deadlock_.empty()) {
        return Status::InvalidArgument(fmt::format("{}; {}", book_.WaitingMessage(*v.edge), deadlock_));
      }
      if (v.state == GateBook::State::kBroken) return Status::InvalidArgument(book_.BrokenMessage(*v.edge));
      waiting_[writer] = {step, publish};
      cv_.Wait(&mu_);
      waiting_.erase(writer);
    }
  }
  void Finished(size_t writer, size_t step) override {
    MutexLock lock(&mu_);
    book_.Finished(writer, step);
    cv_.SignalAll();
  }
  void Skipped(size_t writer, size_t step) override {
    MutexLock lock(&mu_);
    book_.Skipped(writer, step);
    cv_.SignalAll();
  }
  void Stopped(size_t writer, std::string why) override {
    MutexLock lock(&mu_);
    book_.Stopped(writer, std::move(why));
    --unfinished_;
    if (deadlock_.empty() && !waiting_.empty() && waiting_.size() == unfinished_ && AllStillWait()) {
      DeclareDeadlock(std::nullopt);
    }
    cv_.SignalAll();
  }
  bool deadlocked() const override {
    MutexLock lock(&mu_);
    return !deadlock_.empty();
  }

 private:
  // Every other unfinished writer waits at a gate that is still closed (a waiter whose gate just
  // opened has been notified and is about to go on).
  bool EveryoneElseWaits(size_t writer) const REQUIRES(mu_) {
    return waiting_.count(writer) == 0 && waiting_.size() + 1 == unfinished_ && AllStillWait();
  }
  bool AllStillWait() const REQUIRES(mu_) {
    for (const auto& [w, at] : waiting_)
      if (book_.Check(w, at.first, at.second).state != GateBook::State::kWait) return false;
    return true;
  }
  // `self` is the writer that found the deadlock, if any.
  void DeclareDeadlock(std::optional<size_t> self) REQUIRES(mu_) {
    std::set<size_t> writers;
    for (const auto& [w, at] : waiting_) writers.insert(w);
    if (self) writers.insert(*self);
    std::string names;
    for (size_t w : writers) names += (names.empty() ? "" : ", ") + book_.writer_name(w);
    deadlock_ = "deadlock: every unfinished writer is blocked waiting for another: " + names;
    cv_.SignalAll();
  }

  mutable Mutex mu_;
  CondVar cv_;
  GateBook book_ GUARDED_BY(mu_);
  // writer -> the step it waits at, and whether at its publish point
  std::map<size_t, std::pair<size_t, bool>> waiting_ GUARDED_BY(mu_);
  size_t unfinished_ GUARDED_BY(mu_);
  std::string deadlock_ GUARDED_BY(mu_);
};

}  // namespace

std::unique_ptr<Gates> MakeSimGates(const Scenario& s, sim::Scheduler* scheduler) {
  return std::make_unique<SimGates>(s, scheduler);
}

std::unique_ptr<Gates> MakeThreadGates(const Scenario& s) { return std::make_unique<ThreadGates>(s); }

}  // namespace commitlab::scenarios::internal
