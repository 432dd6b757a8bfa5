#include "commitlab/core/iceberg/committer.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <limits>
#include <memory>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/apply.h"
#include "commitlab/core/iceberg/validation.h"

namespace commitlab::iceberg {
namespace {

// SnapshotProducer.manifestListPath: "metadata/snap-<snapshot id>-<attempt>-<commit uuid>.avro",
// built without fmt, as each attempt names a new one.
std::string ManifestListPath(int64_t snapshot_id, int attempt, std::string_view commit_uuid) {
  constexpr std::string_view kPrefix = "metadata/snap-", kSuffix = ".avro";
  std::string path;
  path.reserve(kPrefix.size() + 20 + 1 + 11 + 1 + commit_uuid.size() + kSuffix.size());  // longest numbers
  path += kPrefix;
  AppendDecimal(snapshot_id, &path);
  path += '-';
  AppendDecimal(attempt, &path);
  path += '-';
  path += commit_uuid;
  path += kSuffix;
  return path;
}

CommitKind EventKind(const Operation& op) {
  std::optional<DataOperation> data = SnapshotOperation(op);
  if (data == DataOperation::kAppend) return CommitKind::kAppend;
  if (data == DataOperation::kReplace) return CommitKind::kCompact;
  return CommitKind::kOverwrite;
}

// The invariants a swap relies on: `next`, built by an attempt from `base`, is the version after it,
// and its snapshot (if it makes one) is the new head of main on base's head.
void CheckReadyToSwap(const TableMetadata& base, const TableMetadata& next, const ApplyContext& ctx,
                      bool makes_snapshot) {
  COMMITLAB_CHECK(next.version == base.version + 1,
                  "a commit swaps from the version it refreshed to the next one (TableMetadata.buildFrom)");
  COMMITLAB_DCHECK(!next.metadata_log.empty() && next.metadata_log.back() == base.location,
                   "the new metadata logs the file it replaces (TableMetadata.Builder: previousFiles)");
  if (!makes_snapshot) {
    COMMITLAB_CHECK(next.current_snapshot_id == base.current_snapshot_id &&
                        next.last_sequence_number == base.last_sequence_number,
                    "a schema change or an expiry moves no branch and adds no snapshot");
    return;
  }
  COMMITLAB_CHECK(!next.snapshots.empty(), "a snapshot operation adds a snapshot");
  const Snapshot& s = *next.snapshots.back();
  COMMITLAB_CHECK(s.snapshot_id == ctx.snapshot_id && next.current_snapshot_id == s.snapshot_id,
                  "the commit's snapshot, its id fixed for every attempt, is the new head of main");
  COMMITLAB_CHECK(s.parent_id == base.current_snapshot_id,
                  "a snapshot's parent is the head its attempt refreshed and validated against");
  COMMITLAB_CHECK(s.sequence_number == base.last_sequence_number + 1 && next.last_sequence_number == s.sequence_number,
                  "each snapshot takes the next sequence number (TableMetadata.nextSequenceNumber)");
  COMMITLAB_CHECK(ctx.added_manifest == nullptr || (!s.manifests.empty() && s.manifests.back() == ctx.added_manifest &&
                                                    ctx.added_manifest->added_snapshot_id == s.snapshot_id),
                  "a snapshot lists the manifest of the files its commit adds, written once for every attempt");
}

}  // namespace

// CommitStateUnknownException.COMMON_INFO, verbatim.
const char kCommitStateUnknownInfo[] =
    "Cannot determine whether the commit was successful or not, the underlying data files may or may not be "
    "needed. Manual intervention via the Remove Orphan Files Action can remove these files when a connection to the "
    "Catalog can be re-established if the commit was actually unsuccessful.\n"
    "Please check to see whether or not your commit was successful before retrying this commit. Retrying an already "
    "successful operation will result in duplicate records or unintentional modifications.\n"
    "At this time no files will be deleted including possibly unused manifest lists.";

// What stays the same across the attempts of one commit.
struct IcebergCommitter::CommitState {
  std::vector<FileChange> plan = {};  // the files the operation adds and deletes, for events
  std::string commit_uuid = {};
  int64_t snapshot_id = 0;
  ManifestRef added_manifest = {};               // written by the first attempt that got that far
  std::vector<std::string> manifest_lists = {};  // one per attempt that wrote one
};

struct IcebergCommitter::AttemptResult {
  enum Kind { kSuccess, kLost, kFatal } kind = kFatal;
  CommitResult result = {};  // kSuccess
  Status status = {};        // kFatal
  std::string message = {};  // kLost: the CommitFailedException text
};

// What one attempt has found and built so far, passed from step to step.
struct IcebergCommitter::AttemptScope {
  const Operation& op;
  CommitState& state;
  const int attempt;
  const CommitKind kind;
  const std::string_view op_class;
  int64_t new_version = 0;  // the metadata version the attempt swaps to; 0 before the refresh
  MetadataRef base = {};    // what the refresh read
  int64_t attempt_start = 0;
  bool makes_snapshot = false;
  ApplyContext ctx = {};
  std::shared_ptr<const TableMetadata> committed = {};  // the new metadata, then what the catalog holds
  CasResult cas = {};
  bool injected_loss = false;  // a fault point, not the catalog, lost the swap
};

IcebergCommitter::IcebergCommitter(std::string writer, IcebergCommitOptions options, Env* env, IcebergCatalog* catalog,
                                   FileIO* io, EventSink* events)
    : writer_(std::move(writer)),
      options_(std::move(options)),
      env_(env),
      catalog_(catalog),
      io_(io),
      events_(events),
      gate_(*events) {}

void IcebergCommitter::Deliver(Event e) {
  e.user = writer_;
  e.time_micros = env_->NowMicros();
  events_->OnEvent(e);
}

std::string IcebergCommitter::Uuid() { return RandomUuid(env_->rng()); }

Result<MetadataRef> IcebergCommitter::Refresh() {
  env_->BeginStorageOp(StorageOp::kReadLatest);
  Result<MetadataRef> current = catalog_->Current();
  env_->EndStorageOp(StorageOp::kReadLatest);
  return current;
}

std::string IcebergCommitter::NewDataFilePath(std::string_view partition) {
  if (name_prefix_.empty()) name_prefix_ = Uuid();
  return fmt::format("data/{}{}{}-{}-{}.parquet", partition, partition.empty() ? "" : "/", writer_, name_prefix_,
                     name_counter_++);
}

Status IcebergCommitter::WriteDataFile(const FileRef& f) {
  return io_->Write(
      {.path = f->path(), .kind = FileKind::kData, .written_micros = env_->NowMicros(), .writer = writer_, .data = f});
}

Status IcebergCommitter::WriteFile(std::string path, FileKind kind) {
  const int64_t now = env_->NowMicros();
  env_->BeginStorageOp(StorageOp::kWriteManifest);
  Status st = io_->Write({.path = std::move(path), .kind = kind, .written_micros = now, .writer = writer_});
  env_->EndStorageOp(StorageOp::kWriteManifest);
  return st;
}

Status IcebergCommitter::DeleteFile(const std::string& path) {
  // StorageOp has no delete: a delete is charged as a write to the store.
  env_->BeginStorageOp(StorageOp::kWriteManifest);
  Status st = io_->Delete(path);
  env_->EndStorageOp(StorageOp::kWriteManifest);
  return st;
}

void IcebergCommitter::CleanAll(const CommitState& state) {
  // Upstream suppresses cleanup errors; a file already gone is no loss here either.
  for (const std::string& list : state.manifest_lists) (void)DeleteFile(list);
  if (state.added_manifest != nullptr) (void)DeleteFile(state.added_manifest->path);
}

Result<CommitResult> IcebergCommitter::Commit(const Operation& op) {
  crashed_after_swap_ = false;
  CommitState state;
  for (const FileRef& f : op.files_to_add) state.plan.push_back({ChangeKind::kAdd, f->file});
  for (const FileRef& f : op.deletes_to_add) state.plan.push_back({ChangeKind::kAdd, f->file});
  for (const FileRef& f : op.files_to_delete) state.plan.push_back({ChangeKind::kDelete, f->file});
  state.commit_uuid = Uuid();
  if (SnapshotOperation(op)) {
    // SnapshotIdGeneratorUtil: a random positive long, fixed for every attempt of this commit.
    state.snapshot_id = static_cast<int64_t>(env_->rng().Next() & std::numeric_limits<int64_t>::max());
  }
  const RetryPolicy& policy = options_.retry;
  const int64_t start = env_->NowMicros();
  int64_t prev_wait = 0;
  for (int attempt = 1;; ++attempt) {
    AttemptResult r = Attempt(op, state, attempt);
    if (r.kind == AttemptResult::kSuccess) {
      COMMITLAB_CHECK(r.result.base != nullptr && r.result.committed != nullptr,
                      "a commit that succeeded names the metadata it built on and the metadata now current");
      if (options_.budget != nullptr) options_.budget->OnSuccess();
      r.result.attempts = attempt;
      return std::move(r.result);
    }
    if (r.kind == AttemptResult::kFatal) return r.status;
    if (op.kind == OperationKind::kSchemaChange) {
      // SchemaUpdate.commit has no retry loop: a lost commit is final (a REST server has already
      // retried it under its requirements). Counted once, as the atomic failure it was.
      CleanAll(state);
      return Status::Conflict("CommitFailedException: " + r.message);
    }

    // Tasks.runTaskWithRetry: the time limit never stops the second attempt.
    const int64_t elapsed = env_->NowMicros() - start;
    const bool attempts_exhausted = policy.max_retries >= 0 && attempt >= policy.max_retries + 1;
    const bool timeout_exhausted =
        policy.total_timeout_micros >= 0 && elapsed > policy.total_timeout_micros && attempt > 1;
    const bool budget_empty =
        !attempts_exhausted && !timeout_exhausted && options_.budget != nullptr && !options_.budget->TryAcquireRetry();
    if (attempts_exhausted || timeout_exhausted || budget_empty) {
      const std::string failure = "CommitFailedException: " + r.message;
      std::string why = failure;
      if (timeout_exhausted) {
        why = fmt::format("Stopping retries after {} ms. {}", elapsed / 1000, failure);
      } else if (budget_empty) {
        why = fmt::format("The retry budget is empty after {} retries. {}", attempt - 1, failure);
      }
      ++stats_.gave_up;
      Emit({.type = EventType::kGaveUp,
            .level = Level::kError,
            .identifier = op.identifier,
            .kind = EventKind(op),
            .attempt = attempt,
            .message = std::move(why)});
      CleanAll(state);
      return Status::RetriesExhausted(failure);
    }
    const RetryWait next = NextWait(policy, attempt, prev_wait, env_->rng());
    const int64_t wait = next.wait_micros;
    if (gate_.events())
      Emit({.type = EventType::kRetryWait,
            .level = Level::kWarn,
            .identifier = op.identifier,
            .kind = EventKind(op),
            .attempt = attempt,
            .wait_micros = wait,
            .message =
                gate_.Message(FMT_COMPILE("Retrying task after failure: sleepTimeMs={} {}"), wait / 1000, r.message),
            .wait_base_micros = next.base_micros,
            .wait_jitter_micros = next.jitter_micros});
    env_->SleepMicros(wait);
    prev_wait = wait;
  }
}

// One attempt of SnapshotProducer.commit, in the order upstream takes its steps. Each step either
// ends the attempt (its result) or leaves the attempt's state for the next.
IcebergCommitter::AttemptResult IcebergCommitter::Attempt(const Operation& op, CommitState& state, int attempt) {
  AttemptScope a{
      .op = op, .state = state, .attempt = attempt, .kind = EventKind(op), .op_class = OperationClassName(op.kind)};
  if (std::optional<AttemptResult> ended = RefreshBase(a)) return std::move(*ended);
  if (std::optional<AttemptResult> ended = ValidateBase(a)) return std::move(*ended);
  if (std::optional<AttemptResult> ended = WriteMetadataTree(a)) return std::move(*ended);
  if (std::optional<AttemptResult> ended = Swap(a)) return std::move(*ended);
  return Conclude(a);
}

void IcebergCommitter::EmitForAttempt(const AttemptScope& a, EventType type, Level level, std::string message) {
  Emit({.type = type,
        .level = level,
        .identifier = a.op.identifier,
        .kind = a.kind,
        .attempt = a.attempt,
        .snapshot_id = a.new_version,
        .message = std::move(message)});
}

IcebergCommitter::AttemptResult IcebergCommitter::Fatal(const AttemptScope& a, EventType type, Status st) {
  EmitForAttempt(a, type, Level::kError, st.message());
  return AttemptResult{.kind = AttemptResult::kFatal, .status = std::move(st)};
}

// A validation failure: never retried, and a ValidationException is a CleanableFailure.
IcebergCommitter::AttemptResult IcebergCommitter::Refuse(const AttemptScope& a, Status st, const EventCause* cause) {
  ++stats_.conflicts;
  Emit({.type = EventType::kConflict,
        .level = Level::kError,
        .identifier = a.op.identifier,
        .kind = a.kind,
        .attempt = a.attempt,
        .snapshot_id = a.new_version,
        .message = st.message(),
        .cause = cause != nullptr && !cause->files.empty() ? cause : nullptr});
  CleanAll(a.state);
  return AttemptResult{.kind = AttemptResult::kFatal, .status = std::move(st)};
}

// 1. SnapshotProducer.apply's refresh(): read the pointer this attempt builds on.
std::optional<IcebergCommitter::AttemptResult> IcebergCommitter::RefreshBase(AttemptScope& a) {
  Status fault = env_->FaultPoint(fault::kReadLatestBefore);
  if (fault.code() == Code::kCrashed) return Fatal(a, EventType::kCrashed, std::move(fault));
  Result<MetadataRef> refreshed = fault.ok() ? Refresh() : Result<MetadataRef>(fault);
  if (!refreshed.ok()) return Fatal(a, EventType::kError, refreshed.status());
  COMMITLAB_CHECK(*refreshed != nullptr, "a catalog's Current() names the table's metadata or fails, never null");
  a.base = *refreshed;
  a.new_version = a.base->version + 1;
  if (a.op.kind == OperationKind::kExpireSnapshots && SnapshotsToExpire(*a.base, a.op.expire).empty()) {
    // No change, no commit (BaseMetastoreTableOperations: base == metadata).
    return AttemptResult{.kind = AttemptResult::kSuccess, .result = {.base = a.base, .committed = a.base}};
  }
  ++stats_.attempts;
  a.attempt_start = env_->NowMicros();
  if (gate_.events())
    Emit({.type = EventType::kAttempt,
          .identifier = a.op.identifier,
          .kind = a.kind,
          .attempt = a.attempt,
          .snapshot_id = a.new_version,
          .message = gate_.Message(FMT_COMPILE("Committing {} to table {}: metadata v{} -> v{} (attempt {})"),
                                   a.op_class, catalog_->table_name(), a.base->version, a.new_version, a.attempt),
          .base_snapshot = a.base->version,
          .changes = &a.state.plan});
  return std::nullopt;
}

// 2. runValidations(parent): the operation's validate(base, parent) (MergingSnapshotProducer.validate
// and its subclasses) against the snapshots committed since the operation started.
std::optional<IcebergCommitter::AttemptResult> IcebergCommitter::ValidateBase(AttemptScope& a) {
  // A schema change through a pointer catalog commits from the metadata it started from or not at
  // all (BaseMetastoreTableOperations.commit: base != current()).
  if (a.op.kind == OperationKind::kSchemaChange && !catalog_->ChecksRequirements() &&
      a.base->version != a.op.starting_version)
    return Refuse(a, Status::Conflict("CommitFailedException: Cannot commit: stale table metadata"), nullptr);
  EventCause cause;  // what Validate says, when it refuses
  if (Status st = Validate(a.op, *a.base, &cause); !st.ok()) return Refuse(a, std::move(st), &cause);
  return std::nullopt;
}

// SnapshotProducer's new manifests (<commit uuid>-m0.avro): written by the first attempt that gets
// this far and reused by the later ones, as sequence-number inheritance allows.
Status IcebergCommitter::WriteAddedManifest(const Operation& op, CommitState& state) {
  if ((op.files_to_add.empty() && op.deletes_to_add.empty()) || state.added_manifest != nullptr) return Status::OK();
  auto manifest = std::make_shared<ManifestFile>();
  manifest->path = "metadata/" + state.commit_uuid + "-m0.avro";
  manifest->added_snapshot_id = state.snapshot_id;
  for (const FileRef& f : op.files_to_add) manifest->files.push_back(f->path());
  for (const FileRef& f : op.deletes_to_add) manifest->files.push_back(f->path());
  COMMITLAB_RETURN_IF_ERROR(WriteFile(manifest->path, FileKind::kManifest));
  ++stats_.manifests_written;
  state.added_manifest = std::move(manifest);
  return Status::OK();
}

// 3. SnapshotProducer.apply: the manifests, this attempt's manifest list
// (snap-<id>-<attempt>-<uuid>.avro) and the new metadata (TableMetadata.buildFrom(base)).
std::optional<IcebergCommitter::AttemptResult> IcebergCommitter::WriteMetadataTree(AttemptScope& a) {
  if (Status st = env_->FaultPoint(fault::kManifestBefore); !st.ok()) {
    if (st.code() == Code::kCrashed) return Fatal(a, EventType::kCrashed, std::move(st));
    // A write error is no CleanableFailure: with strict cleanup nothing is deleted.
    return Fatal(
        a, EventType::kError,
        Status::IOError(fmt::format("RuntimeIOException: Failed to write manifest list file: {}", st.message())));
  }
  a.makes_snapshot = SnapshotOperation(a.op).has_value();
  ApplyContext& ctx = a.ctx;
  ctx = {.snapshot_id = a.state.snapshot_id, .committed_by = writer_, .timestamp_ms = env_->NowMicros() / 1000};
  if (a.makes_snapshot) {
    if (Status st = WriteAddedManifest(a.op, a.state); !st.ok()) return Fatal(a, EventType::kError, st);
    ctx.added_manifest = a.state.added_manifest;
    ctx.manifest_list = ManifestListPath(a.state.snapshot_id, a.attempt, a.state.commit_uuid);
  }
  ctx.metadata_location = MetadataFilePath(a.new_version, Uuid());
  Result<TableMetadata> next = ApplyOperation(a.op, *a.base, ctx);
  if (!next.ok()) {
    if (next.status().code() == Code::kConflict) return Refuse(a, next.status(), nullptr);
    return Fatal(a, EventType::kError, next.status());
  }
  if (a.makes_snapshot) {
    if (Status st = WriteFile(ctx.manifest_list, FileKind::kManifestList); !st.ok())
      return Fatal(a, EventType::kError, st);
    a.state.manifest_lists.push_back(ctx.manifest_list);
    ++stats_.manifests_written;
  }
  // A REST client sends updates and the server writes the metadata file (RESTTableOperations).
  if (catalog_->ClientWritesMetadata()) {
    if (Status st = WriteFile(ctx.metadata_location, FileKind::kMetadata); !st.ok())
      return Fatal(a, EventType::kError, st);
  }
  CheckReadyToSwap(*a.base, *next, ctx, a.makes_snapshot);
  a.committed = std::make_shared<const TableMetadata>(std::move(*next));
  return std::nullopt;
}

// 4. TableOperations.commit(base, updated): the swap, the one atomic step, with the fault points
// around it. Leaves its outcome in a.cas.
std::optional<IcebergCommitter::AttemptResult> IcebergCommitter::Swap(AttemptScope& a) {
  if (Status before = env_->FaultPoint(fault::kPublishBefore); !before.ok()) {
    if (before.code() == Code::kCrashed) return Fatal(a, EventType::kCrashed, std::move(before));
    // LostRace: the catalog refuses the swap (CommitFailedException, retried), as
    // InMemoryCatalog.InMemoryTableOperations.doCommit does when the location moved; any other
    // failure before the swap leaves its outcome unknown, as a catalog's does.
    a.injected_loss = before.code() == Code::kLostRace;
    a.cas = a.injected_loss ? CasResult{CasOutcome::kLost, fmt::format("Cannot commit to table {}: {}",
                                                                       catalog_->table_name(), before.message())}
                            : CasResult{CasOutcome::kUnknown, before.message()};
    return std::nullopt;
  }
  env_->BeginStorageOp(StorageOp::kPublish);
  a.cas = catalog_->Commit(*a.base, a.committed);
  env_->EndStorageOp(StorageOp::kPublish);
  if (a.cas.outcome != CasOutcome::kSwapped) return std::nullopt;
  if (a.cas.current != nullptr) {
    a.committed = a.cas.current;  // a REST server applied the commit to a newer version
    a.new_version = a.committed->version;
  }
  if (Status after = env_->FaultPoint(fault::kPublishAfter); !after.ok()) {
    if (after.code() == Code::kCrashed) {
      crashed_after_swap_ = true;
      return Fatal(a, EventType::kCrashed, std::move(after));
    }
    a.cas = {CasOutcome::kUnknown, after.message()};
  }
  return std::nullopt;
}

// 5. What the swap's outcome means: committed (then SnapshotProducer.commit's clean-up of the other
// manifest lists), lost (CommitFailedException, retried) or unknown (CommitStateUnknownException).
IcebergCommitter::AttemptResult IcebergCommitter::Conclude(AttemptScope& a) {
  switch (a.cas.outcome) {
    case CasOutcome::kSwapped: {
      std::optional<int64_t> snapshot_id;
      if (a.makes_snapshot) {
        ++stats_.committed;
        snapshot_id = a.state.snapshot_id;
        EmitForAttempt(a, EventType::kPublished, Level::kInfo,
                       gate_.Message(FMT_COMPILE("Committed snapshot {} ({})"), a.state.snapshot_id, a.op_class));
        // Every manifest list but the committed one is garbage now.
        for (const std::string& list : a.state.manifest_lists)
          if (list != a.ctx.manifest_list) (void)DeleteFile(list);
      } else {
        EmitForAttempt(a, EventType::kPublished, Level::kInfo,
                       gate_.Message(FMT_COMPILE("Successfully committed to table {} in {} ms"), catalog_->table_name(),
                                     (env_->NowMicros() - a.attempt_start) / 1000));
      }
      return {.kind = AttemptResult::kSuccess,
              .result = {.base = a.base, .committed = std::move(a.committed), .snapshot_id = snapshot_id}};
    }
    case CasOutcome::kLost:
      ++stats_.atomic_failures;
      if (gate_.events())
        Emit({.type = EventType::kAtomicCommitFailed,
              .level = Level::kWarn,
              .identifier = a.op.identifier,
              .kind = a.kind,
              .attempt = a.attempt,
              .snapshot_id = a.new_version,
              .message = gate_.Message("CommitFailedException: {}", a.cas.message),
              .injected = a.injected_loss});
      return {.kind = AttemptResult::kLost, .message = std::move(a.cas.message)};
    case CasOutcome::kUnknown: break;
  }
  // Not retried and nothing deleted: the swap may have landed.
  ++stats_.unknown_outcomes;
  std::string message = fmt::format("CommitStateUnknownException: {}\n{}", a.cas.message, kCommitStateUnknownInfo);
  EmitForAttempt(a, EventType::kUnknownOutcome, Level::kError, message);
  return {.kind = AttemptResult::kFatal, .status = Status::IOError(std::move(message))};
}

}  // namespace commitlab::iceberg
