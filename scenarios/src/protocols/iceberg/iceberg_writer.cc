// A writer of an Iceberg table: its steps on the Iceberg engine (core/.../iceberg), one
// IcebergCommitter per writer. An operation starts from the metadata the writer's last `read`
// pinned (and validates what was committed since), or else from a fresh read when it runs.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/deletes.h"
#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/iceberg/reader.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/scenarios/iceberg_counter.h"
#include "protocols/iceberg/iceberg_history.h"
#include "protocols/iceberg/iceberg_steps.h"
#include "protocols/iceberg/iceberg_table.h"

namespace commitlab::scenarios::internal {
namespace {

using iceberg::CommitResult;
using iceberg::FileRef;
using iceberg::MetadataRef;

std::string Version(const MetadataRef& m) {
  return fmt::format("v{} (snapshot {})", m->version, iceberg::FormatSnapshotId(m->current_snapshot_id));
}

class IcebergWriter final : public ProtocolWriter {
 public:
  // `opened`: whether the writer's own catalog client could be made; if not, every step fails with it.
  IcebergWriter(ProtocolContext ctx, IcebergTableRun* table, std::unique_ptr<iceberg::IcebergCatalog> own_catalog,
                Status opened)
      : ctx_(std::move(ctx)),
        table_(table),
        opened_(std::move(opened)),
        own_catalog_(std::move(own_catalog)),
        noting_catalog_(ctx_.history != nullptr
                            ? std::make_unique<NotingCatalog>(
                                  own_catalog_ != nullptr ? own_catalog_.get() : table->catalog(), ctx_.history)
                            : nullptr),
        noting_io_(ctx_.history != nullptr ? std::make_unique<NotingFileIO>(table->io(), ctx_.history) : nullptr),
        catalog_(noting_catalog_ != nullptr ? static_cast<iceberg::IcebergCatalog*>(noting_catalog_.get())
                 : own_catalog_ != nullptr  ? own_catalog_.get()
                                            : table->catalog()),
        io_(noting_io_ != nullptr ? static_cast<iceberg::FileIO*>(noting_io_.get()) : table->io()),
        committer_(ctx_.writer->commit_user, {.retry = ctx_.retry}, ctx_.env, catalog_, io_, ctx_.events) {}

  Status Run(const Step& step, StepResult* r) override {
    if (!opened_.ok()) return opened_;
    const Op& op = step.op;
    if (OpIs<ReadOp>(op)) return Read(r);
    if (OpIs<ScanOp>(op)) return Scan(r);
    if (const auto* append = OpIf<AppendOp>(op)) return Append(*append, r);
    if (const auto* overwrite = OpIf<OverwriteOp>(op)) return Overwrite(*overwrite, r);
    if (const auto* replace = OpIf<ReplacePartitionsOp>(op)) return ReplacePartitions(*replace, r);
    if (const auto* row_delta = OpIf<RowDeltaOp>(op)) return RowDelta(*row_delta, r);
    if (const auto* del = OpIf<DeleteOp>(op)) return Delete(*del, r);
    if (const auto* rewrite = OpIf<RewriteOp>(op)) return Rewrite(*rewrite, r);
    if (const auto* schema = OpIf<SchemaOp>(op)) return Schema(*schema, r);
    if (const auto* expire = OpIf<ExpireOp>(op)) return Expire(*expire, r);
    if (const auto* orphans = OpIf<OrphansOp>(op)) return Orphans(*orphans, r);
    if (const auto* counter = OpIf<CounterOp>(op)) return Counter(*counter, r);
    // The parser gives an Iceberg writer no other step.
    return ctx_.script_error(fmt::format("step {} is not an iceberg step", OpName(op)));
  }

  Counters counters() const override {
    Counters c = committer_.stats();
    c.conflicts += refused_before_commit_;
    return c;
  }

  int64_t orphan_files() const override { return table_->OrphansOf(ctx_.writer->commit_user); }

 private:
  // The operation's starting metadata: what `read` pinned, once; else the pointer now.
  Result<MetadataRef> TakeBase() {
    if (base_ != nullptr) return std::exchange(base_, nullptr);
    return committer_.Refresh();
  }

  iceberg::IsolationLevel Isolation(const std::string& step_level) const {
    const std::string& level = step_level.empty() ? table_->table().isolation : step_level;
    return iceberg::ParseIsolationLevel(level).value_or(iceberg::IsolationLevel::kSerializable);
  }

  Result<FileRef> WriteFile(std::vector<iceberg::Row> rows, const std::string& partition) {
    FileRef f = iceberg::MakeDataFile(committer_.NewDataFilePath(partition), std::move(rows), partition);
    ctx_.env->BeginStorageOp(StorageOp::kWriteData);
    Status st = committer_.WriteDataFile(f);
    ctx_.env->EndStorageOp(StorageOp::kWriteData);
    if (!st.ok()) return st;
    return f;
  }

  Result<FileRef> WriteData(const DataSpec& d) {
    std::vector<iceberg::Row> rows;
    for (int64_t i = 0; i < d.rows; ++i) rows.push_back({{"id", d.min_key + i}});
    return WriteFile(std::move(rows), d.partition);
  }

  // Commits `op`; a snapshot it makes is acknowledged to the table's checks.
  Status Commit(const iceberg::Operation& op, StepResult* r, const std::string& what) {
    COMMITLAB_ASSIGN_OR_RETURN(CommitResult c, committer_.Commit(op));
    Acknowledge(c, r, what);
    return Status::OK();
  }

  // Tells the table's checks of a committed snapshot; the step's result and detail.
  void Acknowledge(const CommitResult& committed, StepResult* r, const std::string& what) {
    const CommitResult* c = &committed;
    std::string made = "no snapshot";
    if (c->snapshot_id) {
      const iceberg::SnapshotRef s = c->committed->FindSnapshot(*c->snapshot_id);
      table_->Acknowledged(*c->snapshot_id, s != nullptr ? s->sequence_number : 0);
      r->committed = 1;
      if (ctx_.step_details)
        made = fmt::format("snapshot {} (sequence {})", *c->snapshot_id, s != nullptr ? s->sequence_number : 0);
    }
    if (ctx_.step_details)
      r->detail = fmt::format("{}: v{} -> v{}, {}, {} attempt(s)", what, c->base->version, c->committed->version, made,
                              c->attempts);
  }

  Status Read(StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(iceberg::PinnedReader reader, iceberg::PinnedReader::Open(catalog_, io_, ctx_.env));
    reader_.emplace(std::move(reader));
    base_ = reader_->metadata();
    r->committed = static_cast<int64_t>(reader_->files().size());
    r->detail = fmt::format("read {}: {} file(s) planned", Version(base_), reader_->files().size());
    return Status::OK();
  }

  Status Scan(StepResult* r) {
    if (!reader_) return ctx_.script_error("scan reads what a read step pinned: add a read before it");
    COMMITLAB_ASSIGN_OR_RETURN(std::vector<iceberg::Row> rows, reader_->ReadAll());
    r->committed = static_cast<int64_t>(rows.size());
    r->detail =
        fmt::format("scan of snapshot {}: {} row(s)", iceberg::FormatSnapshotId(reader_->snapshot_id()), rows.size());
    return Status::OK();
  }

  Status Append(const AppendOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
    COMMITLAB_ASSIGN_OR_RETURN(FileRef f, WriteData(op.data));
    return Commit(iceberg::NewAppend(*base, {f}), r, "append " + f->path());
  }

  Status Overwrite(const OverwriteOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
    COMMITLAB_ASSIGN_OR_RETURN(FileRef f, WriteData(op.data));
    const iceberg::Expression& filter = op.filter.expr;
    return Commit(iceberg::NewOverwriteByFilter(*base, filter, {f}, Isolation(op.isolation), op.validation), r,
                  fmt::format("overwrite {} with {}", iceberg::FormatExpression(filter), f->path()));
  }

  Status ReplacePartitions(const ReplacePartitionsOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
    std::vector<FileRef> files;
    std::vector<std::string> paths;
    for (const DataSpec& d : op.files) {
      COMMITLAB_ASSIGN_OR_RETURN(FileRef f, WriteData(d));
      paths.push_back(f->path());
      files.push_back(std::move(f));
    }
    return Commit(iceberg::NewReplacePartitions(*base, std::move(files), op.validation, op.validate_from_start), r,
                  fmt::format("replace partitions with {}", fmt::join(paths, ", ")));
  }

  // Spark's merge-on-read writes one position delete file per partition, naming the rows of the
  // starting snapshot the filter matches that no delete removes yet.
  Status RowDelta(const RowDeltaOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
    std::vector<FileRef> deletes;
    std::vector<std::string> what;
    if (op.delete_filter) {
      std::map<std::string, std::vector<iceberg::PositionDelete>> by_partition;
      if (const iceberg::SnapshotRef s = base->CurrentSnapshot()) {
        for (const auto& [path, f] : base->LiveFiles()) {
          const std::vector<int64_t> gone = iceberg::DeletedPositions(*s, *f);
          for (size_t i = 0; i < f->rows.size(); ++i) {
            if (std::binary_search(gone.begin(), gone.end(), static_cast<int64_t>(i))) continue;
            if (RowMatches(op.delete_filter->expr, f->rows[i], f->file.partition))
              by_partition[f->file.partition].push_back({path, static_cast<int64_t>(i)});
          }
        }
      }
      for (auto& [partition, positions] : by_partition) {
        const size_t n = positions.size();
        FileRef d = iceberg::MakePositionDeleteFile(DeletePath(partition), std::move(positions), partition);
        COMMITLAB_RETURN_IF_ERROR(WriteDelete(d));
        what.push_back(fmt::format("{} ({} position(s))", d->path(), n));
        deletes.push_back(std::move(d));
      }
    }
    if (op.delete_keys) {
      std::vector<iceberg::Row> keys;
      for (int64_t k = op.delete_keys->first; k <= op.delete_keys->second; ++k) keys.push_back({{"id", k}});
      FileRef d = iceberg::MakeEqualityDeleteFile(DeletePath(op.partition), {"id"}, std::move(keys), op.partition);
      COMMITLAB_RETURN_IF_ERROR(WriteDelete(d));
      what.push_back(fmt::format("{} (id {}..{})", d->path(), op.delete_keys->first, op.delete_keys->second));
      deletes.push_back(std::move(d));
    }
    std::vector<FileRef> rows;
    if (op.data) {
      COMMITLAB_ASSIGN_OR_RETURN(FileRef f, WriteData(*op.data));
      what.push_back(f->path());
      rows.push_back(std::move(f));
    }
    if (deletes.empty() && rows.empty()) {
      r->detail = fmt::format("row delta: no row matches {} as of {}", op.delete_filter->text, Version(base));
      return Status::OK();
    }
    const iceberg::Expression conflict_filter =
        op.conflict_filter ? op.conflict_filter->expr : iceberg::Expression::AlwaysTrue();
    return Commit(iceberg::NewRowDelta(*base, std::move(rows), std::move(deletes), conflict_filter, op.validation,
                                       op.validate_from_start),
                  r, fmt::format("row delta {}", fmt::join(what, ", ")));
  }

  std::string DeletePath(const std::string& partition) {
    std::string path = committer_.NewDataFilePath(partition);
    const size_t dot = path.rfind('.');
    return path.insert(dot == std::string::npos ? path.size() : dot, "-deletes");
  }

  Status WriteDelete(const FileRef& d) {
    ctx_.env->BeginStorageOp(StorageOp::kWriteData);
    Status st = committer_.WriteDataFile(d);
    ctx_.env->EndStorageOp(StorageOp::kWriteData);
    return st;
  }

  Status Delete(const DeleteOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
    const iceberg::Expression& filter = op.filter.expr;
    Result<iceberg::Operation> del = iceberg::NewDeleteByFilter(*base, filter, Isolation(op.isolation));
    if (!del.ok()) {
      // Refused before it reached the committer (a file only partly matching): a refusal all the same.
      if (del.status().code() == Code::kConflict) {
        ++refused_before_commit_;
        ctx_.events->OnEvent({.type = EventType::kConflict,
                              .level = Level::kError,
                              .user = ctx_.writer->commit_user,
                              .kind = CommitKind::kOverwrite,
                              .time_micros = ctx_.env->NowMicros(),
                              .message = del.status().message()});
      }
      return del.status();
    }
    return Commit(
        *del, r,
        fmt::format("delete where {} ({} file(s))", iceberg::FormatExpression(filter), del->files_to_delete.size()));
  }

  Status Rewrite(const RewriteOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
    std::vector<FileRef> inputs;
    std::vector<iceberg::Row> rows;
    const iceberg::SnapshotRef head = base->CurrentSnapshot();
    for (const auto& entry : base->LiveFiles()) {
      if (entry.second->file.partition != op.partition) continue;
      inputs.push_back(entry.second);
      // Compaction reads through the delete files, as rewrite_data_files does.
      for (iceberg::Row& row : iceberg::LiveRows(*head, *entry.second)) rows.push_back(std::move(row));
    }
    if (inputs.empty()) {
      r->detail = fmt::format("nothing to rewrite as of {}", Version(base));
      return Status::OK();
    }
    COMMITLAB_ASSIGN_OR_RETURN(FileRef out, WriteFile(std::move(rows), op.partition));
    return Commit(iceberg::NewRewrite(*base, std::move(inputs), {out}), r, "rewrite into " + out->path());
  }

  Status Schema(const SchemaOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
    return Commit(iceberg::NewSchemaChange(*base, op.schema_id), r, fmt::format("schema {}", op.schema_id));
  }

  Status Expire(const ExpireOp& op, StepResult* r) {
    COMMITLAB_ASSIGN_OR_RETURN(iceberg::ExpireResult e,
                               iceberg::ExpireSnapshots(&committer_, {.retain_last = op.retain_last}));
    table_->Expired(e.expired_snapshot_ids);
    r->committed = static_cast<int64_t>(e.expired_snapshot_ids.size());
    r->detail = fmt::format("expire retain-last={}: {} snapshot(s) expired, {} file(s) deleted", op.retain_last,
                            e.expired_snapshot_ids.size(), e.deleted_files.size());
    return Status::OK();
  }

  Status Orphans(const OrphansOp& op, StepResult* r) {
    // Files written before the cut-off only; without older-than, every one (in-flight ones too).
    int64_t cutoff = std::numeric_limits<int64_t>::max();
    if (op.older_than_micros) cutoff = ctx_.env->NowMicros() - *op.older_than_micros;
    const std::string guard =
        op.older_than_micros ? fmt::format(" older than {}", FormatDurationMicros(*op.older_than_micros)) : "";
    if (op.clean) {
      COMMITLAB_ASSIGN_OR_RETURN(std::vector<std::string> removed,
                                 iceberg::RemoveOrphanFiles(catalog_, io_, ctx_.env, cutoff));
      r->committed = static_cast<int64_t>(removed.size());
      r->detail = fmt::format("remove_orphan_files{}: {} file(s) deleted", guard, removed.size());
      return Status::OK();
    }
    COMMITLAB_ASSIGN_OR_RETURN(MetadataRef current, committer_.Refresh());
    const std::vector<std::string> orphans = iceberg::FindOrphanFiles(*current, table_->io()->List(), cutoff);
    r->committed = static_cast<int64_t>(orphans.size());
    r->detail = fmt::format("{} orphan file(s){}", orphans.size(), guard);
    return Status::OK();
  }

  // --- the lost-update counter (iceberg_counter.h), one scenario step at a time ---

  Status Counter(const CounterOp& op, StepResult* r) {
    switch (op.action) {
      case CounterOp::Action::kInit: {
        COMMITLAB_ASSIGN_OR_RETURN(MetadataRef base, TakeBase());
        COMMITLAB_ASSIGN_OR_RETURN(FileRef f, WriteFile({CounterRow(op.key, op.value)}, ""));
        COMMITLAB_RETURN_IF_ERROR(Commit(iceberg::NewAppend(*base, {f}), r,
                                         fmt::format("counter {} = {} in {}", op.key, op.value, f->path())));
        if (ctx_.opaque_step) ctx_.opaque_step(sim::StepAccess::kNoteWrite);  // reads check for it
        table_->CounterInit(op.key, op.value);
        return Status::OK();
      }
      case CounterOp::Action::kRead: {
        if (ctx_.opaque_step) ctx_.opaque_step(sim::StepAccess::kNoteRead);
        if (!table_->CounterInitialised(op.key)) {
          return ctx_.script_error(
              fmt::format("counter read: counter {} is not initialised (no counter init of it "
                          "has committed yet; an order line can make one go first)",
                          op.key));
        }
        PendingIncrement c;
        COMMITLAB_RETURN_IF_ERROR(StartIncrement(&committer_, op.key, &c));
        r->committed = c.read_value;
        r->detail = fmt::format("read counter {} = {} at {}", c.key, c.read_value, Version(c.base));
        r->counter = CounterStepValues{"read", c.key, c.read_value, c.read_version, c.read_value};
        counter_ = std::move(c);
        return Status::OK();
      }
      case CounterOp::Action::kAdd: {
        if (!counter_) return ctx_.script_error("counter add needs a counter read before it");
        int64_t delta = 0;
        if (__builtin_add_overflow(counter_->delta, op.value, &delta)) {
          return ctx_.script_error(fmt::format("counter add: the increments {} + {} do not fit in a 64-bit integer",
                                               counter_->delta, op.value));
        }
        PendingIncrement next = *counter_;
        next.delta = delta;
        Result<int64_t> target = IncrementTarget(next);
        if (!target.ok()) return ctx_.script_error(fmt::format("counter add: {}", target.status().message()));
        COMMITLAB_RETURN_IF_ERROR(WriteIncrement(&committer_, &next));
        counter_ = std::move(next);
        r->committed = *target;
        r->detail = fmt::format("{} = {} + {} = {}, written to {}", counter_->key, counter_->read_value,
                                counter_->delta, *target, counter_->file->path());
        r->counter = CounterStepValues{"add", counter_->key, counter_->read_value, counter_->read_version, *target};
        return Status::OK();
      }
      case CounterOp::Action::kCommit: break;
    }
    if (!counter_ || counter_->file == nullptr)
      return ctx_.script_error("counter commit needs a counter read and a counter add before it");
    PendingIncrement c = *std::exchange(counter_, std::nullopt);
    const int64_t read_first = c.read_value;
    const int64_t unknown_before = committer_.stats().unknown_outcomes;
    Result<CommitResult> committed = CommitIncrement(&committer_, &c, op.on_validation, Isolation(""));
    if (!committed.ok()) {
      // CommitStateUnknownException, or a crash after the swap: the worker was never told, and the
      // increment may be in the table.
      if (committer_.stats().unknown_outcomes > unknown_before || committer_.crashed_after_swap())
        table_->CounterMaybeIncrement(c.key, c.delta);
      return committed.status();
    }
    table_->CounterIncrement(c.key, c.delta);
    Acknowledge(*committed, r,
                fmt::format("counter {} = {} (read {}{}, {} commit(s), on-validation={})", c.key,
                            c.read_value + c.delta, c.read_value,
                            c.read_value == read_first ? "" : fmt::format(", first read {}", read_first), c.commits,
                            OnValidationFailureName(op.on_validation)));
    r->counter = CounterStepValues{"commit", c.key, c.read_value, c.read_version, c.read_value + c.delta};
    return Status::OK();
  }

  ProtocolContext ctx_;
  IcebergTableRun* const table_;
  const Status opened_;
  // The writer's own client of a catalog on a real server; null for one in memory.
  const std::unique_ptr<iceberg::IcebergCatalog> own_catalog_;
  // With a history, the writer's catalog and file store note each call's result into it.
  const std::unique_ptr<NotingCatalog> noting_catalog_;
  const std::unique_ptr<NotingFileIO> noting_io_;
  iceberg::IcebergCatalog* const catalog_;
  iceberg::FileIO* const io_;
  iceberg::IcebergCommitter committer_;
  MetadataRef base_;                             // pinned by `read` for the next operation
  std::optional<iceberg::PinnedReader> reader_;  // the last `read`, for `scan`
  std::optional<PendingIncrement> counter_;      // between `counter read` and `counter commit`
  int64_t refused_before_commit_ = 0;            // validation refusals while building an operation
};

}  // namespace

std::unique_ptr<ProtocolWriter> MakeIcebergWriter(ProtocolContext ctx, IcebergTableRun* table) {
  Result<std::unique_ptr<iceberg::IcebergCatalog>> own = table->WriterCatalog(ctx.writer->name, ctx.env);
  Status open = own.status();
  return std::make_unique<IcebergWriter>(std::move(ctx), table, own.ok() ? std::move(*own) : nullptr, std::move(open));
}

}  // namespace commitlab::scenarios::internal
