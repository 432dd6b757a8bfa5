#include "commitlab/core/delta/transaction.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/model.h"

namespace commitlab::delta {
namespace {

// Events carry Paimon's commit kinds; this is the nearest one for each Delta operation.
CommitKind KindOf(Operation op) {
  switch (op) {
    case Operation::kInsert:
    case Operation::kStreamingUpdate: return CommitKind::kAppend;
    case Operation::kOptimize: return CommitKind::kCompact;
    default: return CommitKind::kOverwrite;
  }
}

EventGate GateFor(const EventSink* events) {
  static const NullEventSink kNone;
  return EventGate(events != nullptr ? *events : kNone);
}

}  // namespace

OptimisticTransaction::OptimisticTransaction(std::string writer, DeltaLog* log, Env* env, EventSink* events,
                                             TransactionOptions options)
    : writer_(std::move(writer)),
      log_(log),
      env_(env),
      events_(events),
      gate_(GateFor(events)),
      options_(std::move(options)) {}

Result<OptimisticTransaction> OptimisticTransaction::Start(std::string writer, DeltaLog* log, Env* env,
                                                           EventSink* events, TransactionOptions options,
                                                           const TableSnapshot* base) {
  OptimisticTransaction txn(std::move(writer), log, env, events, std::move(options));
  if (Status st = txn.Load(base, nullptr); !st.ok()) return st;
  return txn;
}

Result<OptimisticTransaction> OptimisticTransaction::Start(std::string writer, DeltaLog* log, Env* env,
                                                           EventSink* events, TransactionOptions options,
                                                           TableSnapshot&& base) {
  OptimisticTransaction txn(std::move(writer), log, env, events, std::move(options));
  if (Status st = txn.Load(nullptr, &base); !st.ok()) return st;
  return txn;
}

void OptimisticTransaction::Emit(Event e) {
  if (events_ == nullptr) return;
  e.user = writer_;
  e.kind = KindOf(op_);
  e.identifier = info_.actions.txns.empty() ? 0 : info_.actions.txns.front().version;
  e.time_micros = env_->NowMicros();
  events_->OnEvent(e);
}

std::string OptimisticTransaction::LogPath(int64_t version) const {
  return fmt::format("{}/_delta_log/{}", options_.table, DeltaFileName(version));
}

Status OptimisticTransaction::Load(const TableSnapshot* copy_from, TableSnapshot* move_from) {
  start_micros_ = env_->NowMicros();
  auto fail = [&](Status st) {
    Emit({.type = st.code() == Code::kCrashed ? EventType::kCrashed : EventType::kError,
          .level = Level::kError,
          .attempt = 1,
          .message = st.message()});
    return st;
  };
  if (Status st = env_->FaultPoint(fault::kReadLatestBefore); !st.ok()) return fail(std::move(st));
  int64_t target = 0;
  if (options_.read_version) {
    target = *options_.read_version;
  } else {
    env_->BeginStorageOp(StorageOp::kReadLatest);
    Result<int64_t> latest = log_->LatestVersion();
    env_->EndStorageOp(StorageOp::kReadLatest);
    if (!latest.ok()) return fail(latest.status());
    target = *latest;
  }
  if (move_from != nullptr && move_from->version() <= target) {
    snapshot_ = std::move(*move_from);
  } else if (copy_from != nullptr && copy_from->version() <= target) {
    snapshot_ = *copy_from;
  }
  if (Status st = AdvanceSnapshot(snapshot_, *log_, *env_, target); !st.ok()) return fail(std::move(st));
  COMMITLAB_CHECK(snapshot_.version() == target, "a transaction reads the snapshot at the version it chose, no newer");
  info_.partitioned = snapshot_.partitioned();
  info_.read_protocol = snapshot_.protocol();
  info_.actions.commit_info.txn_id = RandomUuid(env_->rng());
  return Status::OK();
}

std::vector<DataFile> OptimisticTransaction::Read(ReadPredicate p) {
  std::vector<DataFile> out;
  for (const auto& [name, f] : snapshot_.files()) {
    if (!p.Matches(f)) continue;
    out.push_back(f);
    info_.read_files[name] = f;
  }
  info_.read_predicates.push_back(std::move(p));
  return out;
}

std::vector<DataFile> OptimisticTransaction::FilterFiles(std::vector<std::string> partitions) {
  return Read(ReadPredicate::In(std::move(partitions)));
}

std::vector<DataFile> OptimisticTransaction::FilterFiles() {
  std::vector<DataFile> out;
  for (const auto& [name, f] : snapshot_.files()) {
    out.push_back(f);
    info_.read_files[name] = f;
  }
  info_.read_predicates.push_back(ReadPredicate::All());
  return out;
}

namespace {

void Conjuncts(const Expression& e, std::vector<Expression>* out) {
  if (e.op == Expression::Op::kAnd) {
    Conjuncts(e.children[0], out);
    Conjuncts(e.children[1], out);
    return;
  }
  out->push_back(e);
}

}  // namespace

std::vector<DataFile> OptimisticTransaction::FilterFiles(const Expression& filter) {
  // DeltaTableUtils.isPredicatePartitionColumnsOnly, conjunct by conjunct.
  const std::vector<std::string> no_columns;
  const std::vector<std::string>& partition_columns =
      snapshot_.metadata() ? snapshot_.metadata()->partition_columns : no_columns;
  std::vector<Expression> conjuncts;
  Conjuncts(filter, &conjuncts);
  std::optional<Expression> partition_filter;
  for (Expression& c : conjuncts) {
    const std::vector<std::string> columns = ReferencedColumns(c);
    const bool partition_only = std::all_of(columns.begin(), columns.end(), [&](const std::string& col) {
      return std::find(partition_columns.begin(), partition_columns.end(), col) != partition_columns.end();
    });
    if (!partition_only) continue;
    partition_filter = partition_filter ? Expression::And(std::move(*partition_filter), std::move(c)) : std::move(c);
  }
  if (!partition_filter) return FilterFiles();
  return Read(ReadPredicate::Where(std::move(*partition_filter)));
}

void OptimisticTransaction::ReadWholeTable() {
  info_.read_predicates.push_back(ReadPredicate::All());
  info_.read_whole_table = true;
}

int64_t OptimisticTransaction::TxnVersion(const std::string& app_id) {
  info_.read_app_ids.insert(app_id);
  return snapshot_.TxnVersion(app_id);
}

void OptimisticTransaction::Add(DataFile f, bool data_change) {
  info_.actions.adds.push_back({std::move(f), data_change});
}

void OptimisticTransaction::Remove(DataFile f, bool data_change) {
  info_.actions.removes.push_back({std::move(f), data_change});
}

void OptimisticTransaction::UpdateMetadata(Metadata m) { info_.actions.metadata = std::move(m); }

void OptimisticTransaction::UpdateProtocol(Protocol p) { info_.actions.protocol = std::move(p); }

void OptimisticTransaction::SetTransactionVersion(std::string app_id, int64_t version) {
  info_.actions.txns.push_back({std::move(app_id), version});
}

// OptimisticTransaction.checkForSetTransactionConflictAndDedup (spark/.../delta/OptimisticTransaction.scala):
// one app id with two versions is DeltaErrors.setTransactionVersionConflict, an IllegalArgumentException
// thrown before anything is written; the same version twice is kept once.
Status OptimisticTransaction::DedupSetTransactions() {
  std::vector<SetTransaction>& txns = info_.actions.txns;
  std::vector<SetTransaction> kept;
  for (SetTransaction& t : txns) {
    auto seen = std::find_if(kept.begin(), kept.end(), [&](const SetTransaction& k) { return k.app_id == t.app_id; });
    if (seen == kept.end()) {
      kept.push_back(std::move(t));
    } else if (seen->version != t.version) {
      return Status::InvalidArgument(fmt::format(
          "IllegalArgumentException: Two SetTransaction actions within the same transaction have the same appId {} "
          "but different versions {} and {}.",
          t.app_id, seen->version, t.version));
    }
  }
  txns = std::move(kept);
  return Status::OK();
}

IsolationLevel OptimisticTransaction::CommitIsolationLevel(Operation op) const {
  const delta::Commit& a = info_.actions;
  const std::optional<Metadata>& m = a.metadata ? a.metadata : snapshot_.metadata();
  const IsolationLevel table = m ? TableIsolationLevel(*m) : IsolationLevel::kSerializable;
  // canDowngradeToSnapshotIsolation: only file actions may be present.
  if (a.metadata || a.protocol || !a.txns.empty()) return table;
  bool data_changed = false;
  for (const AddFile& f : a.adds) data_changed |= f.data_change;
  for (const RemoveFile& f : a.removes) data_changed |= f.data_change;
  const bool downgrade =
      table == IsolationLevel::kSerializable ? !data_changed : !data_changed && !OperationChangesData(op);
  return downgrade ? IsolationLevel::kSnapshotIsolation : table;
}

delta::Commit OptimisticTransaction::PrepareCommit(Operation op) const {
  delta::Commit c = info_.actions;
  if (snapshot_.version() < 0 && !c.protocol) c.protocol = Protocol{};
  CommitInfo& ci = c.commit_info;
  ci.timestamp_millis = env_->NowMicros() / 1000;
  ci.user_name = writer_;
  ci.operation = op;
  ci.read_version = snapshot_.version();
  ci.isolation_level = level_;
  ci.is_blind_append = c.removes.empty() && info_.read_predicates.empty() && info_.read_files.empty();
  ci.read_predicates.clear();
  for (const ReadPredicate& p : info_.read_predicates) ci.read_predicates.push_back(p.ToString());
  ci.read_files.clear();
  for (const auto& [name, f] : info_.read_files) ci.read_files.push_back(name);
  return c;
}

Result<int64_t> OptimisticTransaction::Commit(Operation op) {
  if (committed_) return Status::InvalidArgument("Transaction already committed.");
  committed_ = true;
  op_ = op;
  if (Status st = DedupSetTransactions(); !st.ok()) {
    Emit({.type = EventType::kError, .level = Level::kError, .attempt = 1, .message = st.message()});
    return st;
  }
  if (snapshot_.version() < 0 && !info_.actions.metadata) {
    Status st =
        Status::InvalidArgument("Couldn't find Metadata while committing the first version of the Delta table.");
    Emit({.type = EventType::kError, .level = Level::kError, .attempt = 1, .message = st.message()});
    return st;
  }
  level_ = CommitIsolationLevel(op);
  info_.actions = PrepareCommit(op);
  for (const AddFile& a : info_.actions.adds) plan_.push_back({ChangeKind::kAdd, a.file});
  for (const RemoveFile& r : info_.actions.removes) plan_.push_back({ChangeKind::kDelete, r.file});
  COMMITLAB_CHECK(info_.actions.commit_info.read_version == snapshot_.version() &&
                      (snapshot_.version() >= 0 || info_.actions.protocol.has_value()),
                  "a commit records the version it read, and the table's first commit carries a protocol");

  const int64_t first_version = snapshot_.version() + 1;
  int64_t version = first_version;
  std::string check_line;
  const std::optional<RetryPolicy>& retry = options_.retry;
  const int64_t commit_start = env_->NowMicros();  // the policy's total timeout counts from here
  int64_t prev_wait = 0;
  for (int64_t attempt = 0;; ++attempt) {  // Delta's attemptNumber
    if (attempt > 0) {
      const bool out_of_attempts = retry ? (retry->max_retries >= 0 && attempt > retry->max_retries) ||
                                               (retry->total_timeout_micros >= 0 &&
                                                env_->NowMicros() - commit_start > retry->total_timeout_micros)
                                         : attempt > options_.max_commit_attempts;
      if (out_of_attempts) {
        ++stats_.gave_up;
        std::string msg = fmt::format(
            "This commit has failed as it has been tried {} times but did not succeed.\n"
            "This can be caused by the Delta table being committed continuously by many concurrent\n"
            "commits.\n\n"
            "Commit started at version: {}\n"
            "Commit failed at version: {}\n"
            "Number of actions attempted to commit: {}\n"
            "Total time spent attempting this commit: {} ms",
            attempt, first_version, version, info_.actions.ActionCount(), (env_->NowMicros() - start_micros_) / 1000);
        Emit({.type = EventType::kGaveUp,
              .level = Level::kError,
              .attempt = static_cast<int>(attempt),
              .snapshot_id = version,
              .message = msg});
        return Status::RetriesExhausted(std::move(msg));
      }
      if (retry) {
        prev_wait = NextWaitMicros(*retry, static_cast<int>(attempt), prev_wait, env_->rng());
        env_->SleepMicros(prev_wait);
      }
      COMMITLAB_ASSIGN_OR_RETURN(int64_t next, CheckForConflicts(version, static_cast<int>(attempt), &check_line));
      version = next;
    }
    Status error;
    switch (DoCommit(version, static_cast<int>(attempt) + 1, check_line, &error)) {
      case WriteStep::kWritten:
        COMMITLAB_CHECK(stats_.commits == 1 && version > snapshot_.version(),
                        "a transaction commits once, at a version after the one it read");
        return version;
      case WriteStep::kCollided: break;
      case WriteStep::kFailed: return error;
    }
  }
}

OptimisticTransaction::WriteStep OptimisticTransaction::DoCommit(int64_t version, int attempt,
                                                                 const std::string& check_line, Status* error) {
  COMMITLAB_CHECK(version > snapshot_.version(), "a transaction writes a version after the one it read, never over it");
  ++stats_.attempts;
  if (gate_.events())
    Emit({.type = EventType::kAttempt,
          .attempt = attempt,
          .snapshot_id = version,
          .message =
              gate_.Message(FMT_COMPILE("{}Attempting to commit version {} with {} actions with {} isolation level"),
                            check_line, version, info_.actions.ActionCount(), IsolationLevelName(level_)),
          .base_snapshot = version - 1,
          .changes = &plan_});
  auto crashed = [&](Status st) {
    Emit({.type = EventType::kCrashed,
          .level = Level::kError,
          .attempt = attempt,
          .snapshot_id = version,
          .message = st.message()});
    *error = std::move(st);
    return WriteStep::kFailed;
  };
  auto unknown = [&](const Status& cause) {
    ++stats_.unknown_outcomes;
    std::string msg = fmt::format(
        "Exception while committing delta #{} to {}/_delta_log: whether {} was written is unknown. Caused by: {}",
        version, options_.table, DeltaFileName(version), cause.message());
    Emit({.type = EventType::kUnknownOutcome,
          .level = Level::kWarn,
          .attempt = attempt,
          .snapshot_id = version,
          .message = msg});
    *error = Status::IOError(std::move(msg));
    return WriteStep::kFailed;
  };

  bool injected_loss = false;
  WriteResult r;
  if (Status st = env_->FaultPoint(fault::kPublishBefore); !st.ok()) {
    if (st.code() == Code::kCrashed) return crashed(std::move(st));
    if (st.code() != Code::kLostRace) return unknown(st);
    // LostRace: the put-if-absent finds N.json (LogStore.write's FileAlreadyExistsException). The
    // conflict check then finds no winner and the next attempt tries version N again.
    injected_loss = true;
    r.outcome = WriteOutcome::kAlreadyExists;
  } else {
    env_->BeginStorageOp(StorageOp::kPublish);
    r = log_->WriteIfAbsent(version, info_.actions);
    env_->EndStorageOp(StorageOp::kPublish);
  }
  switch (r.outcome) {
    case WriteOutcome::kWritten: {
      if (Status st = env_->FaultPoint(fault::kPublishAfter); !st.ok()) {
        if (st.code() == Code::kCrashed) return crashed(std::move(st));
        return unknown(st);
      }
      ++stats_.commits;
      if (gate_.events())
        Emit({.type = EventType::kPublished,
              .attempt = attempt,
              .snapshot_id = version,
              .message = gate_.Message(FMT_COMPILE("Committed delta #{} to {}/_delta_log"), version, options_.table)});
      return WriteStep::kWritten;
    }
    case WriteOutcome::kAlreadyExists:
      ++stats_.collisions;
      if (gate_.events())
        Emit({.type = EventType::kAtomicCommitFailed,
              .level = Level::kWarn,
              .attempt = attempt,
              .snapshot_id = version,
              .message = gate_.Message(FMT_COMPILE("java.nio.file.FileAlreadyExistsException: {}"), LogPath(version)),
              .injected = injected_loss});
      return WriteStep::kCollided;
    case WriteOutcome::kError: break;
  }
  return unknown(r.error);
}

Result<int64_t> OptimisticTransaction::CheckForConflicts(int64_t check_version, int attempt, std::string* check_line) {
  auto fail = [&](Status st) {
    Emit({.type = st.code() == Code::kCrashed ? EventType::kCrashed : EventType::kError,
          .level = Level::kError,
          .attempt = attempt + 1,
          .snapshot_id = check_version,
          .message = st.message()});
    return st;
  };
  if (Status st = env_->FaultPoint(fault::kReadLatestBefore); !st.ok()) return fail(std::move(st));
  env_->BeginStorageOp(StorageOp::kReadLatest);
  Result<int64_t> latest = log_->LatestVersion();
  env_->EndStorageOp(StorageOp::kReadLatest);
  if (!latest.ok()) return fail(latest.status());
  const int64_t next = *latest + 1;
  // The version collided (or an injected loss kept it free): the log holds it or stops just before.
  COMMITLAB_CHECK(next >= check_version, "a log only grows: a transaction never goes back below a version it tried");

  for (int64_t v = check_version; v < next; ++v) {
    env_->BeginStorageOp(StorageOp::kReadSnapshot);
    Result<CommitRef> read = log_->Read(v);
    env_->EndStorageOp(StorageOp::kReadSnapshot);
    if (!read.ok()) return fail(read.status());
    COMMITLAB_CHECK(*read != nullptr, "a log returns a version as written, never null (DeltaLog::Read)");
    const delta::Commit& winner = **read;
    ++stats_.winners_checked;
    if (Status st = CheckConflicts(info_, winner, v, level_); !st.ok()) {
      ++stats_.conflicts;
      const EventCause cause{.kind = CauseKind::kDeltaConflict, .snapshot = v, .by = winner.commit_info.user_name};
      Emit({.type = EventType::kConflict,
            .level = Level::kError,
            .attempt = attempt + 1,
            .snapshot_id = v,
            .message = st.message(),
            .cause = &cause});
      return st;
    }
  }
  // The next attempt's event message starts with it: formatted only for a sink that reads messages.
  *check_line = gate_.Message(
      "[attempt {}] No conflicts with versions [{}, {}) with current txn having {} adds, {} removes, {} read "
      "predicates, {} read files. ",
      attempt, check_version, next, info_.actions.adds.size(), info_.actions.removes.size(),
      info_.read_predicates.size(), info_.read_files.size());
  return next;
}

}  // namespace commitlab::delta
