// A writer of an Iceberg table: its steps on the Iceberg engine (core/.../iceberg), one
// IcebergCommitter per writer. An operation starts from the metadata the writer's last `read`
// pinned (and validates what was committed since), or else from a fresh read when it runs.
#include <fmt/format.h>

#include <optional>
#include <utility>
#include <variant>

#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/counter.h"
#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/iceberg/reader.h"
#include "runner_lakes.h"
#include "runner_protocol.h"

namespace commitlab::scenarios::internal {
namespace {

using iceberg::CommitResult;
using iceberg::FileRef;
using iceberg::MetadataRef;

constexpr int kMaxCounterTries = 10;  // as IncrementCounter's default

iceberg::Expression Filter(const FilterSpec& f) {
  if (f.integer) return iceberg::Expression::Equal(f.column, static_cast<int64_t>(std::stoll(f.value)));
  return iceberg::Expression::Equal(f.column, f.value);
}

std::string Version(const MetadataRef& m) {
  return fmt::format("v{} (snapshot {})", m->version, iceberg::FormatSnapshotId(m->current_snapshot_id));
}

class IcebergWriter final : public ProtocolWriter {
 public:
  IcebergWriter(ProtocolContext ctx, IcebergTableRun* table)
      : ctx_(std::move(ctx)),
        table_(table),
        committer_(ctx_.writer->commit_user, {.retry = ctx_.retry}, ctx_.env, table->catalog(), table->io(),
                   ctx_.events) {}

  Status Run(const Step& step, StepResult* r) override {
    return std::visit(
        [&](const auto& op) -> Status {
          using T = std::decay_t<decltype(op)>;
          if constexpr (std::is_same_v<T, ReadOp>) return Read(r);
          if constexpr (std::is_same_v<T, ScanOp>) return Scan(r);
          if constexpr (std::is_same_v<T, AppendOp>) return Append(op, r);
          if constexpr (std::is_same_v<T, OverwriteOp>) return Overwrite(op, r);
          if constexpr (std::is_same_v<T, DeleteOp>) return Delete(op, r);
          if constexpr (std::is_same_v<T, RewriteOp>) return Rewrite(op, r);
          if constexpr (std::is_same_v<T, SchemaOp>) return Schema(op, r);
          if constexpr (std::is_same_v<T, ExpireOp>) return Expire(op, r);
          if constexpr (std::is_same_v<T, OrphansOp>) return Orphans(op, r);
          if constexpr (std::is_same_v<T, CounterOp>) return Counter(op, r);
          // The parser gives an Iceberg writer no other step.
          return ctx_.script_error(fmt::format("step {} is not an iceberg step", OpName(step.op)));
        },
        step.op);
  }

  Counters counters() const override {
    const CommitStats& s = committer_.stats();
    return Counters{.committed = s.snapshots,
                    .attempts = s.attempts,
                    .atomic_failures = s.atomic_failures,
                    .conflicts = s.conflicts,
                    .unknown_outcomes = s.unknown_outcomes,
                    .idempotent_matches = 0,
                    .gave_up = s.gave_up,
                    .orphan_files = 0};
  }

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
    Result<CommitResult> c = committer_.Commit(op);
    if (!c.ok()) return c.status();
    std::string made = "no snapshot";
    if (c->snapshot_id) {
      const iceberg::SnapshotRef s = c->committed->FindSnapshot(*c->snapshot_id);
      table_->Acknowledged(*c->snapshot_id, s != nullptr ? s->sequence_number : 0);
      r->committed = 1;
      made = fmt::format("snapshot {} (sequence {})", *c->snapshot_id, s != nullptr ? s->sequence_number : 0);
    }
    r->detail = fmt::format("{}: v{} -> v{}, {}, {} attempt(s)", what, c->base->version, c->committed->version, made,
                            c->attempts);
    return Status::OK();
  }

  Status Read(StepResult* r) {
    Result<iceberg::PinnedReader> reader = iceberg::PinnedReader::Open(table_->catalog(), table_->io(), ctx_.env);
    if (!reader.ok()) return reader.status();
    reader_.emplace(std::move(*reader));
    base_ = reader_->metadata();
    r->committed = static_cast<int64_t>(reader_->files().size());
    r->detail = fmt::format("read {}: {} file(s) planned", Version(base_), reader_->files().size());
    return Status::OK();
  }

  Status Scan(StepResult* r) {
    if (!reader_) return ctx_.script_error("scan reads what a read step pinned: add a read before it");
    Result<std::vector<iceberg::Row>> rows = reader_->ReadAll();
    if (!rows.ok()) return rows.status();
    r->committed = static_cast<int64_t>(rows->size());
    r->detail = fmt::format("scan of snapshot {}: {} row(s)", iceberg::FormatSnapshotId(reader_->snapshot_id()),
                            rows->size());
    return Status::OK();
  }

  Status Append(const AppendOp& op, StepResult* r) {
    Result<MetadataRef> base = TakeBase();
    if (!base.ok()) return base.status();
    Result<FileRef> f = WriteData(op.data);
    if (!f.ok()) return f.status();
    return Commit(iceberg::NewAppend(**base, {*f}), r, "append " + (*f)->path());
  }

  Status Overwrite(const OverwriteOp& op, StepResult* r) {
    Result<MetadataRef> base = TakeBase();
    if (!base.ok()) return base.status();
    Result<FileRef> f = WriteData(op.data);
    if (!f.ok()) return f.status();
    const iceberg::Expression filter = Filter(op.filter);
    return Commit(iceberg::NewOverwriteByFilter(**base, filter, {*f}, Isolation(op.isolation)), r,
                  fmt::format("overwrite {} with {}", iceberg::FormatExpression(filter), (*f)->path()));
  }

  Status Delete(const DeleteOp& op, StepResult* r) {
    Result<MetadataRef> base = TakeBase();
    if (!base.ok()) return base.status();
    const iceberg::Expression filter = Filter(op.filter);
    Result<iceberg::Operation> del = iceberg::NewDeleteByFilter(**base, filter, Isolation(op.isolation));
    if (!del.ok()) return del.status();
    return Commit(*del, r,
                  fmt::format("delete where {} ({} file(s))", iceberg::FormatExpression(filter),
                              del->files_to_delete.size()));
  }

  Status Rewrite(const RewriteOp& op, StepResult* r) {
    Result<MetadataRef> base = TakeBase();
    if (!base.ok()) return base.status();
    std::vector<FileRef> inputs;
    std::vector<iceberg::Row> rows;
    for (const auto& entry : (*base)->LiveFiles()) {
      if (entry.second->file.partition != op.partition) continue;
      inputs.push_back(entry.second);
      rows.insert(rows.end(), entry.second->rows.begin(), entry.second->rows.end());
    }
    if (inputs.empty()) {
      r->detail = fmt::format("nothing to rewrite as of {}", Version(*base));
      return Status::OK();
    }
    Result<FileRef> out = WriteFile(std::move(rows), op.partition);
    if (!out.ok()) return out.status();
    return Commit(iceberg::NewRewrite(**base, std::move(inputs), {*out}), r, "rewrite into " + (*out)->path());
  }

  Status Schema(const SchemaOp& op, StepResult* r) {
    Result<MetadataRef> base = TakeBase();
    if (!base.ok()) return base.status();
    return Commit(iceberg::NewSchemaChange(**base, op.schema_id), r, fmt::format("schema {}", op.schema_id));
  }

  Status Expire(const ExpireOp& op, StepResult* r) {
    Result<iceberg::ExpireResult> e = iceberg::ExpireSnapshots(&committer_, {.retain_last = op.retain_last});
    if (!e.ok()) return e.status();
    table_->Expired(e->expired_snapshot_ids);
    r->committed = static_cast<int64_t>(e->expired_snapshot_ids.size());
    r->detail = fmt::format("expire retain-last={}: {} snapshot(s) expired, {} file(s) deleted", op.retain_last,
                            e->expired_snapshot_ids.size(), e->deleted_files.size());
    return Status::OK();
  }

  Status Orphans(const OrphansOp& op, StepResult* r) {
    if (op.clean) {
      Result<std::vector<std::string>> removed =
          iceberg::RemoveOrphanFiles(table_->catalog(), table_->io(), ctx_.env);
      if (!removed.ok()) return removed.status();
      r->committed = static_cast<int64_t>(removed->size());
      r->detail = fmt::format("remove_orphan_files: {} file(s) deleted", removed->size());
      return Status::OK();
    }
    Result<MetadataRef> current = committer_.Refresh();
    if (!current.ok()) return current.status();
    const std::vector<std::string> orphans = iceberg::FindOrphanFiles(**current, table_->io()->List());
    r->committed = static_cast<int64_t>(orphans.size());
    r->detail = fmt::format("{} orphan file(s)", orphans.size());
    return Status::OK();
  }

  // --- the lost-update counter ---

  struct CounterState {
    std::string key;
    MetadataRef base;  // what the value was read at: the overwrite validates from here
    int64_t read_value = 0;
    int64_t delta = 0;
    FileRef file;  // the computed value, written by `counter add`
  };

  Status CounterRead(const std::string& key, CounterState* c) {
    Result<iceberg::PinnedReader> reader = iceberg::PinnedReader::Open(table_->catalog(), table_->io(), ctx_.env);
    if (!reader.ok()) return reader.status();
    Result<std::vector<iceberg::Row>> rows = reader->ReadAll();
    if (!rows.ok()) return rows.status();
    Result<std::optional<int64_t>> value = iceberg::CounterValue(*rows, key);
    if (!value.ok()) return value.status();
    c->key = key;
    c->base = reader->metadata();
    c->read_value = value->value_or(0);
    return Status::OK();
  }

  Status CounterWrite(CounterState* c) {
    Result<FileRef> f = WriteFile({iceberg::CounterRow(c->key, c->read_value + c->delta)}, "");
    if (!f.ok()) return f.status();
    c->file = *f;
    return Status::OK();
  }

  Status Counter(const CounterOp& op, StepResult* r) {
    switch (op.action) {
      case CounterOp::Action::kInit: {
        Result<MetadataRef> base = TakeBase();
        if (!base.ok()) return base.status();
        Result<FileRef> f = WriteFile({iceberg::CounterRow(op.key, op.value)}, "");
        if (!f.ok()) return f.status();
        COMMITLAB_RETURN_IF_ERROR(Commit(iceberg::NewAppend(**base, {*f}), r,
                                         fmt::format("counter {} = {} in {}", op.key, op.value, (*f)->path())));
        table_->CounterInit(op.key, op.value);
        return Status::OK();
      }
      case CounterOp::Action::kRead: {
        CounterState c;
        COMMITLAB_RETURN_IF_ERROR(CounterRead(op.key, &c));
        r->committed = c.read_value;
        r->detail = fmt::format("read counter {} = {} at {}", c.key, c.read_value, Version(c.base));
        counter_ = std::move(c);
        return Status::OK();
      }
      case CounterOp::Action::kAdd: {
        if (!counter_) return ctx_.script_error("counter add needs a counter read before it");
        counter_->delta += op.value;
        COMMITLAB_RETURN_IF_ERROR(CounterWrite(&*counter_));
        r->committed = counter_->read_value + counter_->delta;
        r->detail = fmt::format("{} = {} + {} = {}, written to {}", counter_->key, counter_->read_value,
                                counter_->delta, r->committed, counter_->file->path());
        return Status::OK();
      }
      case CounterOp::Action::kCommit: break;
    }
    if (!counter_ || counter_->file == nullptr)
      return ctx_.script_error("counter commit needs a counter read and a counter add before it");
    CounterState c = *std::exchange(counter_, std::nullopt);
    const iceberg::IsolationLevel level = Isolation("");
    for (int tries = 1;; ++tries) {
      const iceberg::Operation overwrite =
          iceberg::NewOverwriteByFilter(*c.base, iceberg::CounterFilter(c.key), {c.file}, level);
      Status st = Commit(overwrite, r,
                         fmt::format("counter {} = {} (read {}, try {})", c.key, c.read_value + c.delta, c.read_value,
                                     tries));
      if (st.ok()) {
        table_->CounterIncrement(c.key, c.delta);
        return st;
      }
      if (st.code() != Code::kConflict || op.on_validation == "give-up" || tries >= kMaxCounterTries) return st;
      if (op.on_validation == "recommit-stale") {
        // A fresh operation validates from the current snapshot: the stale value goes in unchallenged.
        Result<MetadataRef> fresh = committer_.Refresh();
        if (!fresh.ok()) return fresh.status();
        c.base = *fresh;
      } else {  // reread: read again, add again (the stale file stays behind as an orphan)
        const int64_t delta = c.delta;
        COMMITLAB_RETURN_IF_ERROR(CounterRead(c.key, &c));
        c.delta = delta;
        COMMITLAB_RETURN_IF_ERROR(CounterWrite(&c));
      }
    }
  }

  ProtocolContext ctx_;
  IcebergTableRun* const table_;
  iceberg::IcebergCommitter committer_;
  MetadataRef base_;                              // pinned by `read` for the next operation
  std::optional<iceberg::PinnedReader> reader_;  // the last `read`, for `scan`
  std::optional<CounterState> counter_;           // between `counter read` and `counter commit`
};

}  // namespace

std::unique_ptr<ProtocolWriter> MakeIcebergWriter(ProtocolContext ctx, IcebergTableRun* table) {
  return std::make_unique<IcebergWriter>(std::move(ctx), table);
}

}  // namespace commitlab::scenarios::internal
