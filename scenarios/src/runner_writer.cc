#include "runner_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <variant>

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


// "data-7382d1e7…-0", as the lecture abbreviates file names.
std::string ShortName(const std::string& name) {
  const size_t last_dash = name.rfind('-');
  if (!name.starts_with("data-") || name.size() < 13 || last_dash < 13) return name;
  return name.substr(0, 13) + "…" + name.substr(last_dash);
}

std::string Names(const std::vector<DataFile>& files) {
  std::string out;
  for (const DataFile& f : files) out += (out.empty() ? "" : ", ") + ShortName(f.name);
  return out;
}

std::string BucketName(const std::string& partition, int32_t bucket) {
  return partition.empty() ? fmt::format("bucket {}", bucket)
                           : fmt::format("partition {} bucket {}", partition, bucket);
}

}  // namespace

void Checkpoints::Save(const std::string& name, Committable c) {
  std::lock_guard<std::mutex> lock(mu_);
  saved_[name] = std::move(c);
}

std::optional<Committable> Checkpoints::Get(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = saved_.find(name);
  if (it == saved_.end()) return std::nullopt;
  return it->second;
}

namespace {

std::vector<EventSink*> WriterSinks(const WriterEnv& env) {
  std::vector<EventSink*> sinks = {env.events};
  if (env.history != nullptr) sinks.push_back(env.history);
  return sinks;
}

}  // namespace

WriterRun::WriterRun(size_t index, SnapshotStore* table_store, WriterEnv env)
    : index_(index),
      writer_(env.scenario->writers[index]),
      env_(std::move(env)),
      history_env_(env_.history != nullptr ? std::make_unique<HistoryEnv>(env_.env, env_.history) : nullptr),
      point_env_(history_env_ != nullptr ? history_env_.get() : env_.env, [this] { return BeforePublish(); }),
      sinks_(WriterSinks(env_)),
      events_(&sinks_),
      store_(table_store) {
  store_.set_history(env_.history);
  ProtocolContext ctx{.writer = &writer_,
                      .env = &point_env_,
                      .events = &events_,
                      .history = env_.history,
                      .retry = env_.plan->retry,
                      .script_error = [this](std::string m) { return ScriptError(std::move(m)); }};
  if (env_.iceberg != nullptr) {
    protocol_ = MakeIcebergWriter(std::move(ctx), env_.iceberg);
  } else if (env_.delta != nullptr) {
    protocol_ = MakeDeltaWriter(std::move(ctx), env_.delta);
  } else {
    committer_ = MakeCommitter();
  }
  report_.name = writer_.name;
  report_.user = writer_.commit_user;
  report_.steps.resize(writer_.steps.size());
}

std::unique_ptr<Committer> WriterRun::MakeCommitter() {
  const Table& table = env_.scenario->tables[writer_.table];
  CommitOptions options;
  options.table = table.name;
  options.primary_key = table.primary_key;
  options.ignore_empty_commit = table.ignore_empty_commit;
  options.idempotency_check = env_.plan->idempotency_check;
  options.retry = env_.plan->retry;
  return std::make_unique<Committer>(writer_.commit_user, options, &point_env_, &store_, &sinks_);
}

void WriterRun::Run() {
  if (env_.on_start) env_.on_start();
  const std::vector<Step>& steps = writer_.steps;
  size_t i = 0;
  while (i < steps.size()) {
    StepResult& r = report_.steps[i];
    if (Status gate = env_.gates->WaitToStart(index_, i); !gate.ok()) {
      r.status = StepStatus::kFailed;
      r.outcome = Outcome::kRefused;
      r.error = gate.message();
      run_errors_.push_back(gate.message());
      return Stop(Outcome::kRefused, gate.message());
    }
    script_error_ = false;
    (void)events_.TakeSawError();
    if (env_.history != nullptr) env_.history->StepStart(*env_.scenario, steps[i]);
    Status st = RunStep(steps[i], &r);
    r.status = st.ok() ? StepStatus::kOk : StepStatus::kFailed;
    if (!st.ok()) {
      // A script error is a refusal even when it stopped an engine the way a crash does.
      r.outcome = script_error_ ? Outcome::kRefused : OutcomeOf(st);
      r.error = st.message();
      // The log and the trace show every failure: one the engine did not report is reported here.
      // (Paimon's outcome recorder reads its events as commits: its script errors stay run errors.)
      if (protocol_ != nullptr && !events_.TakeSawError()) {
        events_.OnEvent({.type = EventType::kError,
                         .level = Level::kError,
                         .user = writer_.commit_user,
                         .time_micros = env_.env->NowMicros(),
                         .message = r.error});
      }
    }
    if (env_.history != nullptr) env_.history->StepEnd(steps[i], r);
    env_.gates->Finished(index_, i);
    if (env_.on_step) env_.on_step(index_, i, r);
    if (st.ok()) {
      ++i;
      continue;
    }
    if (script_error_) {
      run_errors_.push_back(point_error_.empty() ? r.error : point_error_);
      return Stop(r.outcome, r.error);
    }
    if (r.outcome != Outcome::kCrashed) return Stop(r.outcome, r.error);
    // A crash: the job fails over. It goes on at its next restart, if the script has one.
    ++report_.crashes;
    auto restart = std::find_if(steps.begin() + static_cast<std::ptrdiff_t>(i) + 1, steps.end(),
                                [](const Step& s) { return std::holds_alternative<RestartOp>(s.op); });
    const size_t next = static_cast<size_t>(restart - steps.begin());
    if (next == steps.size()) return Stop(Outcome::kCrashed, r.error);
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

Status WriterRun::RunStep(const Step& step, StepResult* r) {
  current_ = &step;
  current_index_ = static_cast<size_t>(&step - writer_.steps.data());
  published_ = false;
  point_error_.clear();
  if (protocol_ != nullptr) return protocol_->Run(step, r);
  return std::visit(
      [&](const auto& op) -> Status {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, WriteOp>) return Write(op, r);
        if constexpr (std::is_same_v<T, CompactOp>) return Compact(op, r);
        if constexpr (std::is_same_v<T, CommitOp>) return Commit(op, r);
        if constexpr (std::is_same_v<T, CheckpointOp>) return Checkpoint(op, r);
        if constexpr (std::is_same_v<T, FilterAndCommitOp>) return FilterAndCommit(op, r);
        if constexpr (std::is_same_v<T, RestartOp>) {
          Restart(r);
          return Status::OK();
        }
        // The parser gives a Paimon writer no other step.
        return ScriptError(fmt::format("step {} is not a paimon step", OpName(step.op)));
      },
      step.op);
}

Status WriterRun::ScriptError(std::string message) {
  script_error_ = true;
  return Status::InvalidArgument(fmt::format("{}: {}: {}", env_.scenario->Where(current_->pos), writer_.name, message));
}

DataFile WriterRun::NewFile(const std::string& partition, int32_t bucket, int32_t level, int64_t min_key,
                            int64_t max_key, int64_t rows) {
  // One random name prefix per writer, as Paimon's DataFilePathFactory has one per job.
  if (file_prefix_.empty()) file_prefix_ = "data-" + RandomUuid(env_.env->rng()) + "-";
  return DataFile{.name = fmt::format("{}{}.parquet", file_prefix_, file_counter_++),
                  .partition = partition,
                  .bucket = bucket,
                  .level = level,
                  .min_key = min_key,
                  .max_key = max_key,
                  .row_count = rows};
}

Status WriterRun::WriteFile(const DataFile& f) {
  env_.env->BeginStorageOp(StorageOp::kWriteData);
  Status st = store_.WriteDataFile(f);
  env_.env->EndStorageOp(StorageOp::kWriteData);
  return st;
}

Status WriterRun::Write(const WriteOp& op, StepResult* r) {
  DataFile f = NewFile(op.partition, op.bucket, 0, op.min_key, op.max_key, op.rows);
  COMMITLAB_RETURN_IF_ERROR(WriteFile(f));
  r->detail = fmt::format("write {} ({}, L0, keys {}..{}, rows={})", ShortName(f.name),
                          BucketName(f.partition, f.bucket), f.min_key, f.max_key, f.row_count);
  pending_append_.push_back({ChangeKind::kAdd, std::move(f)});
  return Status::OK();
}

Status WriterRun::Compact(const CompactOp& op, StepResult* r) {
  COMMITLAB_RETURN_IF_ERROR(view_.Refresh(&store_, env_.env));
  const std::vector<DataFile> level = view_.Files(op.partition, op.bucket, op.from_level);
  std::vector<DataFile> inputs;
  if (op.all_files) {
    inputs = level;
  } else {
    for (int32_t index : op.files) {
      if (static_cast<size_t>(index) >= level.size()) {
        return ScriptError(fmt::format("compact: there is no file {} in {} L{}: it has {} file(s) as of snapshot {}",
                                       index, BucketName(op.partition, op.bucket), op.from_level, level.size(),
                                       view_.snapshot_id()));
      }
      inputs.push_back(level[static_cast<size_t>(index)]);
    }
  }
  if (inputs.empty()) {
    r->detail = fmt::format("nothing to compact: {} L{} has no files as of snapshot {}",
                            BucketName(op.partition, op.bucket), op.from_level, view_.snapshot_id());
    return Status::OK();
  }
  int64_t min_key = inputs.front().min_key, max_key = inputs.front().max_key, rows = 0;
  for (const DataFile& f : inputs) {
    min_key = std::min(min_key, f.min_key);
    max_key = std::max(max_key, f.max_key);
    rows += f.row_count;
  }
  DataFile out = NewFile(op.partition, op.bucket, op.to_level, op.min_key.value_or(min_key),
                         op.max_key.value_or(max_key), op.rows.value_or(rows));
  COMMITLAB_RETURN_IF_ERROR(WriteFile(out));
  for (const DataFile& f : inputs) pending_compact_.push_back({ChangeKind::kDelete, f});
  pending_compact_.push_back({ChangeKind::kAdd, out});
  r->detail = fmt::format("compact {} L{} -> L{} as of snapshot {}: compactBefore = [{}], compactAfter = [{}]",
                          BucketName(op.partition, op.bucket), op.from_level, op.to_level, view_.snapshot_id(),
                          Names(inputs), ShortName(out.name));
  return Status::OK();
}

Result<Committable> WriterRun::SavedCheckpoint(const std::string& name) {
  if (std::optional<Committable> c = env_.checkpoints->Get(name)) return std::move(*c);
  // Saved by a step another writer has not reached yet: the script needs an order line.
  for (const Writer& w : env_.scenario->writers) {
    for (const Step& s : w.steps) {
      const auto* cp = std::get_if<CheckpointOp>(&s.op);
      if (cp == nullptr || cp->name != name) continue;
      return ScriptError(
          fmt::format("checkpoint \"{}\" is not saved yet: {} saves it at {} and has not got there "
                      "(an order line can make it go first)",
                      name, w.name, env_.scenario->Where({s.pos.line, 0})));
    }
  }
  return ScriptError(fmt::format("checkpoint \"{}\" is not saved", name));
}

Status WriterRun::Commit(const CommitOp& op, StepResult* r) {
  Committable c;
  if (!op.checkpoint.empty()) {
    Result<Committable> saved = SavedCheckpoint(op.checkpoint);
    if (!saved.ok()) return saved.status();
    c = std::move(*saved);
  } else {
    c.identifier = op.identifier;
    c.append_changes = std::exchange(pending_append_, {});
    c.compact_changes = std::exchange(pending_compact_, {});
  }
  const int64_t before = committer_->stats().snapshots;
  Result<int> n = committer_->Commit(c);
  r->committed = committer_->stats().snapshots - before;
  r->detail = fmt::format("commit identifier {}{}: {} snapshot(s)", c.identifier,
                          op.checkpoint.empty() ? "" : " (checkpoint " + op.checkpoint + ")", r->committed);
  return n.ok() ? Status::OK() : n.status();
}

Status WriterRun::Checkpoint(const CheckpointOp& op, StepResult* r) {
  Committable c{.identifier = op.identifier,
                .append_changes = std::exchange(pending_append_, {}),
                .compact_changes = std::exchange(pending_compact_, {})};
  r->detail = fmt::format("checkpoint {}: identifier {}, {} file change(s)", op.name, op.identifier,
                          c.append_changes.size() + c.compact_changes.size());
  env_.checkpoints->Save(op.name, std::move(c));
  return Status::OK();
}

Status WriterRun::FilterAndCommit(const FilterAndCommitOp& op, StepResult* r) {
  std::vector<Committable> committables;
  for (const std::string& name : op.checkpoints) {
    Result<Committable> saved = SavedCheckpoint(name);
    if (!saved.ok()) return saved.status();
    committables.push_back(std::move(*saved));
  }
  const size_t offered = committables.size();
  Result<int> n = committer_->FilterAndCommit(std::move(committables));
  r->committed = n.ok() ? *n : 0;
  r->detail = fmt::format("filter-and-commit: {} of {} committable(s) committed", r->committed, offered);
  return n.ok() ? Status::OK() : n.status();
}

void WriterRun::Restart(StepResult* r) {
  retired_ += CountersOf(committer_->stats());
  committer_ = MakeCommitter();
  const size_t dropped = pending_append_.size() + pending_compact_.size();
  pending_append_.clear();
  pending_compact_.clear();
  file_prefix_.clear();
  file_counter_ = 0;
  r->detail = fmt::format("restart: a new committer for user {}; {} pending file change(s) dropped",
                          writer_.commit_user, dropped);
}

WriterReport WriterRun::Report() const {
  if (protocol_ != nullptr) {
    WriterReport out = report_;
    out.counters = protocol_->counters();
    return out;
  }
  WriterReport out = report_;
  out.counters = retired_;
  out.counters += CountersOf(committer_->stats());
  return out;
}

}  // namespace commitlab::scenarios::internal
