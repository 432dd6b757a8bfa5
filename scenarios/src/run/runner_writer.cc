#include "run/runner_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace commitlab::scenarios::internal {
namespace {

Outcome OutcomeOf(const Status& st) {
  switch (st.code()) {
    case Code::kCrashed: return Outcome::kCrashed;
    case Code::kRetriesExhausted: return Outcome::kGaveUp;
    default: return Outcome::kRefused;
  }
}

// How a writer that stopped ended, as the order gates waiting for it say it.
std::string StoppedWhy(Outcome o) {
  switch (o) {
    case Outcome::kOk: return "finished its script";
    case Outcome::kRefused: return "stopped on a failed step";
    case Outcome::kGaveUp: return "gave up";
    case Outcome::kCrashed: return "crashed with no restart step after it";
  }
  return "stopped";
}

}  // namespace

namespace {

std::vector<EventSink*> WriterSinks(const WriterEnv& env) {
  std::vector<EventSink*> sinks = {env.events};
  if (env.history != nullptr) sinks.push_back(env.history);
  return sinks;
}

}  // namespace

WriterRun::WriterRun(size_t index, WriterEnv env)
    : index_(index),
      writer_(env.scenario->writers[index]),
      env_(std::move(env)),
      history_env_(env_.history != nullptr ? std::make_unique<HistoryEnv>(env_.env, env_.history) : nullptr),
      point_env_(history_env_ != nullptr ? history_env_.get() : env_.env, [this] { return BeforePublish(); }),
      sinks_(WriterSinks(env_)),
      events_(&sinks_) {
  ProtocolContext ctx{.scenario = env_.scenario,
                      .writer = &writer_,
                      .env = &point_env_,
                      .events = &events_,
                      .history = env_.history,
                      .retry = env_.plan->retry,
                      .idempotency_check = env_.plan->idempotency_check,
                      .step_details = env_.plan->step_details,
                      .script_error = [this](std::string m) { return ScriptError(std::move(m)); },
                      .opaque_step = env_.opaque_step};
  protocol_ = env_.table->MakeWriter(std::move(ctx));
  report_.name = writer_.name;
  report_.user = writer_.commit_user;
  report_.steps.resize(writer_.steps.size());
}

void WriterRun::Run() {
  if (env_.on_start) env_.on_start();
  const StepList& steps = writer_.steps;
  size_t i = 0;
  while (i < steps.size()) {
    const Step step = steps[i];  // a repeated line's step is made here (StepList)
    if (Status gate = env_.gates->WaitToStart(index_, i); !gate.ok()) {
      report_.steps[i] = {.status = StepStatus::kFailed, .outcome = Outcome::kRefused};
      report_.step_errors.emplace_back(i, gate.message());
      run_errors_.push_back(gate.message());
      return Stop(Outcome::kRefused, gate.message());
    }
    script_error_ = false;
    (void)events_.TakeSawError();
    if (env_.history != nullptr) env_.history->StepStart(step);
    // A step that touches state shared between writers outside the engine's storage brackets
    // (StepOp::shares_state) must not be reordered past anything by the explorer: its line's
    // first step too, which starts before the next scheduling point. (An Iceberg counter marks
    // its own two moments: ProtocolContext::opaque_step.)
    const bool shared = env_.opaque_step && step.op->shares_state();
    if (shared) {
      env_.opaque_step(sim::StepAccess::kOpaque);
      env_.mark_opaque(true);
    }
    StepResult r;
    Status st = RunStep(step, i, &r);
    if (shared) env_.mark_opaque(false);
    r.status = st.ok() ? StepStatus::kOk : StepStatus::kFailed;
    if (!st.ok()) {
      // A script error is a refusal even when it stopped an engine the way a crash does.
      r.outcome = script_error_ ? Outcome::kRefused : OutcomeOf(st);
      r.error = st.message();
      // The log and the history show every failure: one the engine did not report is reported
      // here (ProtocolWriter::reports_silent_failures).
      if (protocol_->reports_silent_failures() && !events_.TakeSawError()) {
        events_.OnEvent({.type = EventType::kError,
                         .level = Level::kError,
                         .user = writer_.commit_user,
                         .time_micros = env_.env->NowMicros(),
                         .message = r.error});
      }
    }
    if (env_.history != nullptr) env_.history->StepEnd(step, r);
    env_.gates->Finished(index_, i);
    if (env_.on_step) env_.on_step(index_, i, r);
    report_.steps[i] = {.status = r.status, .outcome = r.outcome, .committed = r.committed};
    if (!st.ok()) report_.step_errors.emplace_back(i, r.error);
    if (st.ok()) {
      ++i;
      continue;
    }
    if (script_error_) {
      run_errors_.push_back(point_error_.empty() ? r.error : point_error_);
      return Stop(r.outcome, r.error);
    }
    // The job fails over, on a crash and on any failure the engine reports (a Flink committer
    // throws on a refused or given-up commit, and the job restarts from its checkpoint): it goes
    // on at its next step that resumes (Paimon's restart), if the script has one.
    if (r.outcome == Outcome::kCrashed) ++report_.crashes;
    const size_t next = steps.NextWhere(i + 1, [](const Op& op) { return op->resumes_after_failure(); });
    if (next == steps.size()) return Stop(r.outcome, r.error);
    for (size_t j = i + 1; j < next; ++j) {
      report_.steps[j].status = StepStatus::kSkipped;
      env_.gates->Skipped(index_, j);
    }
    i = next;
  }
  Stop(Outcome::kOk, "");
}

void WriterRun::Stop(Outcome outcome, std::string error) {
  report_.outcome = outcome;
  report_.error = std::move(error);
  env_.gates->Stopped(index_, StoppedWhy(outcome));
}

Status WriterRun::BeforePublish() {
  // Sticky: an engine that asks again (a retry, the second publish of a Paimon commit) is stopped
  // again, so nothing of the step is published past a gate that never opened.
  if (!point_error_.empty()) return Status::Crashed(point_error_);
  if (published_) return Status::OK();
  published_ = true;
  Status st = env_.gates->WaitAtPublish(index_, current_index_);
  if (st.ok()) return st;
  // The gate can never open: the step stops where it stands, as at a crash fault (every engine
  // stops a kCrashed publish.before at once: no retry, no unknown outcome), and the run fails
  // naming the order line.
  script_error_ = true;
  point_error_ = st.message();
  return Status::Crashed(point_error_);
}

Status WriterRun::RunStep(const Step& step, size_t index, StepResult* r) {
  current_ = &step;
  current_index_ = index;
  published_ = false;
  point_error_.clear();
  return protocol_->Run(step, r);
}

Status WriterRun::ScriptError(std::string message) {
  script_error_ = true;
  return Status::InvalidArgument(fmt::format("{}: {}: {}", env_.scenario->Where(current_->pos), writer_.name, message));
}

WriterReport WriterRun::TakeReport() {
  WriterReport out = std::move(report_);
  out.counters = protocol_->counters();
  return out;
}

}  // namespace commitlab::scenarios::internal
