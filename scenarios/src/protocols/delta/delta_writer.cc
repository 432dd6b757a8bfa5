// A writer of a Delta table: `begin` starts an OptimisticTransaction at the latest version, `read`,
// `add` and `remove` record into it, `commit` commits it (put-if-absent of the next N.json, the
// conflict checker against each winner, Delta's named exceptions).
#include <fmt/format.h>

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "commitlab/core/delta/transaction.h"
#include "commitlab/core/model.h"
#include "protocols/delta/delta_history.h"
#include "protocols/delta/delta_steps.h"
#include "protocols/delta/delta_table.h"

namespace commitlab::scenarios::internal {
namespace {

std::string Names(const std::vector<DataFile>& files) {
  std::string out;
  for (const DataFile& f : files) out += (out.empty() ? "" : ", ") + f.name;
  return out;
}

class DeltaWriter final : public ProtocolWriter {
 public:
  DeltaWriter(ProtocolContext ctx, DeltaTableRun* table)
      : ctx_(std::move(ctx)),
        table_(table),
        noting_log_(ctx_.history != nullptr ? std::make_unique<NotingDeltaLog>(table->log(), ctx_.history) : nullptr),
        log_(noting_log_ != nullptr ? static_cast<delta::DeltaLog*>(noting_log_.get()) : table->log()) {}

  Status Run(const Step& step, StepResult* r) override {
    if (OpIs<BeginOp>(step.op)) return Begin(r);
    if (!txn_) {
      return ctx_.script_error(fmt::format("{} needs a transaction: add a begin step before it", OpName(step.op)));
    }
    if (const auto* read = OpIf<DeltaReadOp>(step.op)) return Read(*read, r);
    if (const auto* add = OpIf<AddOp>(step.op)) return Add(*add, r);
    if (const auto* remove = OpIf<RemoveOp>(step.op)) return Remove(*remove, r);
    if (const auto* commit = OpIf<DeltaCommitOp>(step.op)) return Commit(*commit, r);
    if (const auto* txn = OpIf<TxnOp>(step.op)) {
      txn_->SetTransactionVersion(txn->app, txn->version);
      r->detail = fmt::format("txn {} version {}", txn->app, txn->version);
      return Status::OK();
    }
    if (const auto* m = OpIf<MetadataOp>(step.op)) {
      delta::Metadata metadata = txn_->snapshot().metadata().value_or(delta::Metadata{});
      if (!m->schema.empty()) metadata.schema = m->schema;
      txn_->UpdateMetadata(metadata);
      r->detail = fmt::format("metadata (schema {})", metadata.schema);
      return Status::OK();
    }
    if (const auto* p = OpIf<ProtocolOp>(step.op)) {
      delta::Protocol protocol = txn_->snapshot().protocol();
      if (p->reader_version) protocol.min_reader_version = *p->reader_version;
      if (p->writer_version) protocol.min_writer_version = *p->writer_version;
      txn_->UpdateProtocol(protocol);
      r->detail = fmt::format("protocol ({}, {})", protocol.min_reader_version, protocol.min_writer_version);
      return Status::OK();
    }
    if (const auto* read_txn = OpIf<ReadTxnOp>(step.op)) {
      r->committed = txn_->TxnVersion(read_txn->app);
      r->detail = fmt::format("read txnVersion({}) = {}", read_txn->app, r->committed);
      return Status::OK();
    }
    return ctx_.script_error(fmt::format("step {} is not a delta step", OpName(step.op)));
  }

  Counters counters() const override {
    Counters c = retired_;
    if (txn_) c += Count(txn_->stats());
    return c;
  }

 private:
  static Counters Count(const delta::TransactionStats& s) {
    Counters c;
    c.committed = s.commits;
    c.attempts = s.attempts;
    c.atomic_failures = s.collisions;  // lost put-if-absent races
    c.conflicts = s.conflicts;
    c.unknown_outcomes = s.unknown_outcomes;
    c.gave_up = s.gave_up;
    return c;
  }

  // Ends the transaction (a new begin starts the next one); keeps its counters.
  void Retire() {
    removed_.clear();
    if (!txn_) return;
    retired_ += Count(txn_->stats());
    txn_.reset();
  }

  Status Begin(StepResult* r) {
    Retire();
    COMMITLAB_ASSIGN_OR_RETURN(delta::OptimisticTransaction t,
                               delta::OptimisticTransaction::Start(ctx_.writer->commit_user, log_, ctx_.env,
                                                                   ctx_.events, {.table = table_->table().name}));
    txn_.emplace(std::move(t));
    r->detail =
        fmt::format("begin at version {} ({} live file(s))", txn_->read_version(), txn_->snapshot().files().size());
    return Status::OK();
  }

  Status Read(const DeltaReadOp& op, StepResult* r) {
    if (op.whole_table) {
      txn_->ReadWholeTable();
      r->detail = "readWholeTable";
      return Status::OK();
    }
    std::vector<DataFile> files;
    std::string what = "every file";
    if (op.filter) {
      files = txn_->FilterFiles(op.filter->expr);
      what = fmt::format("where {} (recorded as {})", op.filter->text, txn_->reads().read_predicates.back().ToString());
    } else if (!op.partition.empty()) {
      files = txn_->FilterFiles({op.partition});
      what = op.partition;
    } else {
      files = txn_->FilterFiles();
    }
    r->committed = static_cast<int64_t>(files.size());
    r->detail = fmt::format("read {}: [{}]", what, Names(files));
    return Status::OK();
  }

  Status Add(const AddOp& op, StepResult* r) {
    std::string name = op.file;
    if (name.empty()) {
      // Spark's part-NNNNN-<uuid>.parquet, one random uuid per writer.
      if (uuid_.empty()) uuid_ = RandomUuid(ctx_.env->rng());
      name = fmt::format("part-{:05d}-{}.parquet", files_++, uuid_);
    }
    txn_->Add(DataFile{.name = name, .partition = op.partition, .row_count = op.rows}, op.data_change);
    r->detail = fmt::format("add {}{}{}", name, op.partition.empty() ? "" : " to " + op.partition,
                            op.data_change ? "" : " (dataChange=false)");
    return Status::OK();
  }

  Status Remove(const RemoveOp& op, StepResult* r) {
    std::vector<DataFile> files;
    for (const std::string& name : op.files) {
      if (removed_.count(name) != 0) {
        return ctx_.script_error(
            fmt::format("remove: file {} is already removed in this transaction (begun at version {})", name,
                        txn_->read_version()));
      }
      // OptimisticTransaction.commit does not look removes up in the snapshot: a file not live
      // here is removed by name, with the partition values the step gives (else none).
      auto it = txn_->snapshot().files().find(name);
      DataFile f = it != txn_->snapshot().files().end() ? it->second : DataFile{.name = name};
      if (op.partition) f.partition = *op.partition;
      files.push_back(std::move(f));
    }
    for (const DataFile& f : files) {
      removed_.insert(f.name);
      txn_->Remove(f, op.data_change);
    }
    r->detail = fmt::format("remove {}{}", Names(files), op.data_change ? "" : " (dataChange=false)");
    return Status::OK();
  }

  Status Commit(const DeltaCommitOp& op, StepResult* r) {
    const std::optional<delta::Operation> operation = delta::ParseOperation(op.operation);
    if (!operation) return ctx_.script_error(fmt::format("unknown operation {}", op.operation));
    Result<int64_t> version = txn_->Commit(*operation);
    const int64_t read_version = txn_->read_version();
    const std::string level(delta::IsolationLevelName(txn_->CommitIsolationLevel(*operation)));
    Retire();
    if (!version.ok()) return version.status();
    table_->Acknowledged(ctx_.writer->commit_user, *version);
    r->committed = 1;
    if (ctx_.step_details)
      r->detail =
          fmt::format("commit {} read at version {}: version {} ({})", op.operation, read_version, *version, level);
    return Status::OK();
  }

  ProtocolContext ctx_;
  DeltaTableRun* const table_;
  const std::unique_ptr<NotingDeltaLog> noting_log_;  // with a history: notes each call's result
  delta::DeltaLog* const log_;
  std::optional<delta::OptimisticTransaction> txn_;
  Counters retired_;               // of the transactions before the current one
  std::set<std::string> removed_;  // files the current transaction removes
  std::string uuid_;
  int64_t files_ = 0;
};

}  // namespace

std::unique_ptr<ProtocolWriter> MakeDeltaWriter(ProtocolContext ctx, DeltaTableRun* table) {
  return std::make_unique<DeltaWriter>(std::move(ctx), table);
}

}  // namespace commitlab::scenarios::internal
