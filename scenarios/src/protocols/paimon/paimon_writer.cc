// A writer of a Paimon table: its steps on Paimon's committer (core/.../paimon), one Committer
// per writer (a new one, with the same commit user, after each restart). `write` and `compact`
// keep their files pending as a Flink writer does until `commit` or `checkpoint` hands them over.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/data_writer.h"
#include "protocols/paimon/paimon_history.h"
#include "protocols/paimon/paimon_steps.h"
#include "protocols/paimon/paimon_table.h"
#include "protocols/paimon/table_view.h"

namespace commitlab::scenarios::internal {
namespace {

// "data-7382d1e7…-0", as S2 第 5 讲 abbreviates file names.
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
  return partition.empty() ? "bucket " + std::to_string(bucket)
                           : "partition " + partition + " bucket " + std::to_string(bucket);
}

class PaimonWriter final : public ProtocolWriter {
 public:
  PaimonWriter(ProtocolContext ctx, PaimonTableRun* table)
      : ctx_(std::move(ctx)), table_(table), store_(table->store(), ctx_.history), committer_(MakeCommitter()) {}

  Status Run(const Step& step, StepResult* r) override {
    const Op& op = step.op;
    if (const auto* write = OpIf<WriteOp>(op)) return Write(*write, r);
    if (const auto* compact = OpIf<CompactOp>(op)) return Compact(*compact, r);
    if (const auto* commit = OpIf<CommitOp>(op)) return Commit(*commit, r);
    if (const auto* checkpoint = OpIf<CheckpointOp>(op)) return Checkpoint(*checkpoint, r);
    if (const auto* filter = OpIf<FilterAndCommitOp>(op)) return FilterAndCommit(*filter, r);
    if (const auto* del = OpIf<DeleteDataFilesOp>(op)) return DeleteDataFiles(*del, r);
    if (OpIs<RestartOp>(op)) {
      Restart(r);
      return Status::OK();
    }
    // The parser gives a Paimon writer no other step.
    return ctx_.script_error(fmt::format("step {} is not a paimon step", OpName(op)));
  }

  Counters counters() const override {
    Counters c = retired_;
    c += committer_->stats();
    return c;
  }

  int64_t orphan_files() const override {
    int64_t n = 0;
    store_.written().ForEach([&](std::string_view name) { n += table_->Referenced(name) ? 0 : 1; });
    return n;
  }

  // The outcome recorder of its table reads ERROR events as commit outcomes.
  bool reports_silent_failures() const override { return false; }

 private:
  std::unique_ptr<paimon::Committer> MakeCommitter() {
    const Table& table = ctx_.scenario->tables[ctx_.writer->table];
    paimon::CommitOptions options;
    options.table = table.name;
    options.primary_key = table.primary_key;
    options.ignore_empty_commit = table.ignore_empty_commit;
    options.idempotency_check = ctx_.idempotency_check;
    options.retry = ctx_.retry;
    options.strict_mode_last_safe_snapshot = ctx_.writer->strict_mode_last_safe_snapshot;
    return std::make_unique<paimon::Committer>(ctx_.writer->commit_user, options, ctx_.env, &store_, ctx_.events);
  }

  // A new data file (not yet written) named after the writer's current file prefix: one random
  // prefix per writer, as Paimon's DataFilePathFactory has one per job, drawn on its first file.
  DataFile NewFile(const std::string& partition, int32_t bucket, int32_t level, int64_t min_key, int64_t max_key,
                   int64_t rows) {
    if (file_prefix_.empty()) file_prefix_ = "data-" + RandomUuid(ctx_.env->rng()) + "-";
    return DataFile{.name = file_prefix_ + std::to_string(file_counter_++) + ".parquet",  // per write: no fmt
                    .partition = partition,
                    .bucket = bucket,
                    .level = level,
                    .min_key = min_key,
                    .max_key = max_key,
                    .row_count = rows,
                    .total_buckets = ctx_.writer->buckets > 0 ? ctx_.writer->buckets
                                                              : ctx_.scenario->tables[ctx_.writer->table].buckets};
  }

  Status Write(const WriteOp& op, StepResult* r) {
    DataFile f = NewFile(op.partition, op.bucket, 0, op.min_key, op.max_key, op.rows);
    COMMITLAB_RETURN_IF_ERROR(paimon::WriteDataFile(ctx_.env, &store_, f));
    if (ctx_.step_details)
      r->detail = "write " + ShortName(f.name) + " (" + BucketName(f.partition, f.bucket) + ", L0, keys " +
                  std::to_string(f.min_key) + ".." + std::to_string(f.max_key) +
                  ", rows=" + std::to_string(f.row_count) + ")";
    pending_append_.push_back({ChangeKind::kAdd, std::move(f)});
    return Status::OK();
  }

  Status Compact(const CompactOp& op, StepResult* r) {
    COMMITLAB_RETURN_IF_ERROR(view_.Refresh(&store_, ctx_.env));
    const std::vector<DataFile> level = view_.Files(op.partition, op.bucket, op.from_level);
    std::vector<DataFile> inputs;
    if (op.all_files) {
      inputs = level;
    } else {
      for (int32_t index : op.files) {
        if (static_cast<size_t>(index) >= level.size()) {
          return ctx_.script_error(fmt::format(
              "compact: there is no file {} in {} L{}: it has {} file(s) as of "
              "snapshot {}",
              index, BucketName(op.partition, op.bucket), op.from_level, level.size(), view_.snapshot_id()));
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
    COMMITLAB_RETURN_IF_ERROR(paimon::WriteDataFile(ctx_.env, &store_, out));
    for (const DataFile& f : inputs) pending_compact_.push_back({ChangeKind::kDelete, f});
    pending_compact_.push_back({ChangeKind::kAdd, out});
    r->detail = fmt::format("compact {} L{} -> L{} as of snapshot {}: compactBefore = [{}], compactAfter = [{}]",
                            BucketName(op.partition, op.bucket), op.from_level, op.to_level, view_.snapshot_id(),
                            Names(inputs), ShortName(out.name));
    return Status::OK();
  }

  Result<Committable> SavedCheckpoint(const std::string& name) {
    if (std::optional<Committable> c = table_->checkpoints()->Get(name)) return std::move(*c);
    // Saved by a step another writer has not reached yet: the script needs an order line.
    for (const Writer& w : ctx_.scenario->writers) {
      for (const Step& s : w.steps) {
        const auto* cp = OpIf<CheckpointOp>(s.op);
        if (cp == nullptr || cp->checkpoint != name) continue;
        return ctx_.script_error(
            fmt::format("checkpoint \"{}\" is not saved yet: {} saves it at {} and has not got there "
                        "(an order line can make it go first)",
                        name, w.name, ctx_.scenario->Where({s.pos.line, 0})));
      }
    }
    return ctx_.script_error(fmt::format("checkpoint \"{}\" is not saved", name));
  }

  Status Commit(const CommitOp& op, StepResult* r) {
    Committable c;
    if (!op.checkpoint.empty()) {
      COMMITLAB_ASSIGN_OR_RETURN(Committable saved, SavedCheckpoint(op.checkpoint));
      c = std::move(saved);
    } else {
      c.identifier = op.identifier;
      c.append_changes = std::exchange(pending_append_, {});
      c.compact_changes = std::exchange(pending_compact_, {});
    }
    const int64_t before = committer_->stats().committed;
    const bool table_ignores_empty = committer_->options().ignore_empty_commit;
    if (op.ignore_empty_commit) committer_->set_ignore_empty_commit(*op.ignore_empty_commit);
    Result<int> n =
        op.overwrite ? committer_->Overwrite(*op.overwrite, c) : committer_->Commit(c, op.check_append_files);
    committer_->set_ignore_empty_commit(table_ignores_empty);
    r->committed = committer_->stats().committed - before;
    if (ctx_.step_details)
      r->detail = "commit identifier " + std::to_string(c.identifier) +
                  (op.checkpoint.empty() ? "" : " (checkpoint " + op.checkpoint + ")") + ": " +
                  std::to_string(r->committed) + " snapshot(s)";
    return n.ok() ? Status::OK() : n.status();
  }

  Status Checkpoint(const CheckpointOp& op, StepResult* r) {
    Committable c{.identifier = op.identifier,
                  .append_changes = std::exchange(pending_append_, {}),
                  .compact_changes = std::exchange(pending_compact_, {})};
    r->detail = fmt::format("checkpoint {}: identifier {}, {} file change(s)", op.checkpoint, op.identifier,
                            c.append_changes.size() + c.compact_changes.size());
    table_->checkpoints()->Save(op.checkpoint, std::move(c));
    return Status::OK();
  }

  Status FilterAndCommit(const FilterAndCommitOp& op, StepResult* r) {
    std::vector<Committable> committables;
    for (const std::string& name : op.checkpoints) {
      COMMITLAB_ASSIGN_OR_RETURN(Committable saved, SavedCheckpoint(name));
      committables.push_back(std::move(saved));
    }
    const size_t offered = committables.size();
    Result<int> n = committer_->FilterAndCommit(std::move(committables));
    r->committed = n.ok() ? *n : 0;
    r->detail = fmt::format("filter-and-commit: {} of {} committable(s) committed", r->committed, offered);
    return n.ok() ? Status::OK() : n.status();
  }

  Status DeleteDataFiles(const DeleteDataFilesOp& op, StepResult* r) {
    std::vector<std::string> gone;
    for (const std::string& name : op.checkpoints) {
      COMMITLAB_ASSIGN_OR_RETURN(Committable saved, SavedCheckpoint(name));
      for (const auto* list : {&saved.append_changes, &saved.compact_changes}) {
        for (const FileChange& ch : *list) {
          if (ch.kind != ChangeKind::kAdd && list == &saved.append_changes) continue;
          if (!store_.DataFileExists(ch.file)) continue;  // already gone
          COMMITLAB_RETURN_IF_ERROR(store_.DeleteDataFile(ch.file));
          gone.push_back(ShortName(ch.file.name));
        }
      }
    }
    r->committed = static_cast<int64_t>(gone.size());
    r->detail = fmt::format("deleted {} data file(s) behind the table's back: {}", gone.size(), fmt::join(gone, ", "));
    return Status::OK();
  }

  // The job fails over: a new committer with the same commit user; what was pending is lost,
  // saved checkpoints survive.
  void Restart(StepResult* r) {
    retired_ += committer_->stats();
    committer_ = MakeCommitter();
    const size_t dropped = pending_append_.size() + pending_compact_.size();
    pending_append_.clear();
    pending_compact_.clear();
    file_prefix_.clear();
    file_counter_ = 0;
    r->detail = fmt::format("restart: a new committer for user {}; {} pending file change(s) dropped",
                            ctx_.writer->commit_user, dropped);
  }

  ProtocolContext ctx_;
  PaimonTableRun* const table_;
  WriterStore store_;  // the writer's handle on the table's store
  std::unique_ptr<paimon::Committer> committer_;
  Counters retired_;  // counters of the committers before the last restart
  TableView view_;
  std::vector<FileChange> pending_append_;
  std::vector<FileChange> pending_compact_;
  std::string file_prefix_;  // "data-<uuid>-", drawn on the first file after each (re)start
  int64_t file_counter_ = 0;
};

}  // namespace

std::unique_ptr<ProtocolWriter> MakePaimonWriter(ProtocolContext ctx, PaimonTableRun* table) {
  return std::make_unique<PaimonWriter>(std::move(ctx), table);
}

}  // namespace commitlab::scenarios::internal
