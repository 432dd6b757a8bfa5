#include "commitlab/core/paimon/committer.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <set>
#include <string_view>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/paimon/conflict_detection.h"

namespace commitlab::paimon {
namespace {

// Java prints a double as "0.025" or "1.0"; Paimon's "after S seconds" uses that form.
std::string JavaSeconds(int64_t micros) {
  const int64_t millis = micros / 1000;
  std::string s = fmt::format("{}", static_cast<double>(millis) / 1000.0);
  if (s.find('.') == std::string::npos && s.find('e') == std::string::npos) s += ".0";
  return s;
}

// What a publish relies on, by construction in TryCommitOnce: DCHECKs, so that Release does not pay
// for them on each of a sweep's ~10^5 publishes. (That conflict detection and an overwrite read
// the parent's files is AdvanceBase's CHECK: base_ is replayed to the latest wherever it is read.)
void CheckReadyToPublish(const Snapshot& s, const std::vector<FileChange>& changes, int64_t latest_id,
                         const std::string& user) {
  COMMITLAB_DCHECK(s.id == s.parent_id + 1 && s.parent_id == latest_id,
                   "snapshot N+1 is published on snapshot N, the latest this attempt read (FileStoreCommitImpl."
                   "tryCommitOnce: newSnapshotId = latestSnapshotId + 1)");
  COMMITLAB_DCHECK(s.commit_user == user,
                   "a snapshot names its committer: the idempotency scan and FilterCommitted find ours by it");
  COMMITLAB_DCHECK(s.changes == changes,
                   "a snapshot publishes the changes its attempt checked and wrote to its manifest");
}

}  // namespace

struct Committer::AttemptResult {
  enum Kind { kSuccess, kRetry, kFatal } kind;
  int64_t snapshot_id = 0;  // kSuccess
  Status status;            // kFatal, or the cause of a kRetry
};

Committer::Committer(std::string commit_user, CommitOptions options, Env* env, SnapshotStore* store, EventSink* events)
    : user_(std::move(commit_user)),
      options_(std::move(options)),
      env_(env),
      store_(store),
      events_(events),
      gate_(*events) {
  attempt_.commit_user = user_;
}

void Committer::Deliver(Event e) {
  e.user = user_;
  e.time_micros = env_->NowMicros();
  events_->OnEvent(e);
}

void Committer::EmitError(EventType type, int64_t identifier, CommitKind kind, int attempt, int64_t snapshot_id,
                          std::string message, const EventCause* cause) {
  Emit({.type = type,
        .level = Level::kError,
        .identifier = identifier,
        .kind = kind,
        .attempt = attempt,
        .snapshot_id = snapshot_id,
        .message = std::move(message),
        .cause = cause});
}

void Committer::NextManifestName() {
  // "manifest-{uuid}-{n}", n = 0, 1, ...: the stem is built once, in place (the uuid is drawn by
  // the first attempt), and then the counter's digits are counted up where they stand: no fmt, no
  // conversion, no allocation once grown.
  std::string& name = attempt_.delta_manifest;
  if (manifest_stem_size_ == 0) {
    constexpr std::string_view kPrefix = "manifest-";
    name.reserve(kPrefix.size() + 36 + 1 + 20);  // prefix, uuid, '-', counter: one allocation
    name = kPrefix;
    AppendRandomUuid(env_->rng(), &name);
    name += '-';
    manifest_stem_size_ = name.size();
    name += '0';
    return;
  }
  COMMITLAB_CHECK(name.size() > manifest_stem_size_, "nothing else writes attempt_.delta_manifest");
  size_t digit = name.size();
  while (digit > manifest_stem_size_ && name[digit - 1] == '9') name[--digit] = '0';
  if (digit == manifest_stem_size_) {
    name.insert(digit, 1, '1');  // 9 -> 10, 99 -> 100
  } else {
    ++name[digit - 1];
  }
}

Result<int> Committer::Commit(const Committable& c, bool check_append_files) {
  int generated = 0;
  if (!options_.ignore_empty_commit || !c.append_changes.empty()) {
    bool overwrite = false;
    for (const FileChange& ch : c.append_changes) overwrite |= ch.kind == ChangeKind::kDelete;
    Result<int64_t> r =
        TryCommit(c.append_changes, c.identifier, overwrite ? CommitKind::kOverwrite : CommitKind::kAppend,
                  check_append_files || overwrite);
    if (!r.ok()) return r.status();
    ++generated;
  }
  if (!c.compact_changes.empty()) {
    COMMITLAB_RETURN_IF_ERROR(
        (TryCommit(c.compact_changes, c.identifier, CommitKind::kCompact, /*detect_conflicts=*/true)).status());
    ++generated;
  }
  return generated;
}

Result<int64_t> Committer::TryCommit(const std::vector<FileChange>& changes, int64_t identifier, CommitKind kind,
                                     bool detect_conflicts) {
  const int64_t start = env_->NowMicros();
  const RetryPolicy& policy = options_.retry;
  std::optional<int64_t> failed_base_id;  // latest id seen by an attempt whose publish failed
  SnapshotRef latest;
  attempt_.changes = changes;  // the same for every attempt of this commit
  COMMITLAB_CHECK(overwrite_partition_ == nullptr || kind == CommitKind::kOverwrite,
                  "only an OVERWRITE snapshot replaces a partition's files (its compaction follows on its own)");
  int64_t prev_wait = 0;
  auto give_up = [&](int retry, std::string msg) {
    ++stats_.gave_up;
    EmitError(EventType::kGaveUp, identifier, kind, retry + 1, 0, msg);
    return Status::RetriesExhausted(std::move(msg));
  };
  for (int retry = 0;; ++retry) {
    Status read = env_->FaultPoint(fault::kReadLatestBefore);
    if (read.code() == Code::kCrashed) {
      EmitError(EventType::kCrashed, identifier, kind, retry + 1, 0, read.message());
      return read;
    }
    if (read.ok()) {
      env_->BeginStorageOp(StorageOp::kReadLatest);
      Result<SnapshotRef> r = store_->LatestSnapshotRef();
      env_->EndStorageOp(StorageOp::kReadLatest);
      if (r.ok()) {
        latest = std::move(*r);
      } else {
        read = r.status();
      }
    }
    if (!read.ok()) {
      EmitError(EventType::kError, identifier, kind, retry + 1, 0, read.message());
      return read;
    }

    AttemptResult r =
        TryCommitOnce(changes, identifier, kind, detect_conflicts, latest.get(), failed_base_id, retry + 1, start);
    if (r.kind == AttemptResult::kSuccess) {
      if (options_.budget != nullptr) options_.budget->OnSuccess();
      return r.snapshot_id;
    }
    if (r.kind == AttemptResult::kFatal) return r.status;

    failed_base_id = latest ? latest->id : 0;
    const int64_t elapsed = env_->NowMicros() - start;
    const bool timed_out = policy.total_timeout_micros >= 0 && elapsed > policy.total_timeout_micros;
    if (timed_out || (policy.max_retries >= 0 && retry >= policy.max_retries)) {
      const int64_t timeout_millis =
          policy.total_timeout_micros >= 0 ? policy.total_timeout_micros / 1000 : std::numeric_limits<int64_t>::max();
      return give_up(retry, fmt::format("Commit failed after {} millis with {} retries, there maybe exist commit "
                                        "conflicts between multiple jobs.",
                                        timeout_millis, retry));
    }
    if (options_.budget != nullptr && !options_.budget->TryAcquireRetry())
      return give_up(retry,
                     fmt::format("Commit failed after {} retries: the retry budget is empty, giving up.", retry));
    int64_t wait = 0;
    if (gate_.events()) {  // per attempt: the wait's parts and the event only for a sink that wants them
      const RetryWait next = NextWait(policy, retry + 1, prev_wait, env_->rng());
      wait = next.wait_micros;
      Emit({.type = EventType::kRetryWait,
            .level = Level::kInfo,
            .identifier = identifier,
            .kind = kind,
            .attempt = retry + 1,
            .wait_micros = wait,
            .message =
                gate_.Message(FMT_COMPILE("Retry commit after waiting {} ms."), static_cast<double>(wait) / 1000.0),
            .wait_base_micros = next.base_micros,
            .wait_jitter_micros = next.jitter_micros});
    } else {
      wait = NextWaitMicros(policy, retry + 1, prev_wait, env_->rng());
    }
    env_->SleepMicros(wait);
    prev_wait = wait;
  }
}

namespace {

// Whether a file partition ("dt=1/hr=2") lies inside an overwrite target ("dt=1", "" = all).
bool InPartition(std::string_view file_partition, std::string_view target) {
  while (!target.empty()) {
    const size_t slash = target.find('/');
    const std::string_view part = target.substr(0, slash);
    bool found = false;
    for (std::string_view rest = file_partition; !rest.empty() && !found;) {
      const size_t s = rest.find('/');
      found = rest.substr(0, s) == part;
      rest = s == std::string_view::npos ? std::string_view() : rest.substr(s + 1);
    }
    if (!found) return false;
    target = slash == std::string_view::npos ? std::string_view() : target.substr(slash + 1);
  }
  return true;
}

}  // namespace

Result<int> Committer::Overwrite(const std::string& partition, const Committable& c) {
  for (const FileChange& ch : c.append_changes) {
    if (!InPartition(ch.file.partition, partition)) {
      return Status::InvalidArgument(
          fmt::format("Trying to overwrite partition {}, but the changes in {} does not belong to this partition",
                      partition.empty() ? "{}" : partition, ch.file.partition.empty() ? "{}" : ch.file.partition));
    }
  }
  overwrite_partition_ = &partition;
  Result<int64_t> r = TryCommit(c.append_changes, c.identifier, CommitKind::kOverwrite, /*detect_conflicts=*/true);
  overwrite_partition_ = nullptr;
  if (!r.ok()) return r.status();
  if (c.compact_changes.empty()) return 1;
  // As FileStoreCommitImpl.overwrite: the compaction follows as a COMPACT snapshot of its own.
  COMMITLAB_RETURN_IF_ERROR(
      (TryCommit(c.compact_changes, c.identifier, CommitKind::kCompact, /*detect_conflicts=*/true)).status());
  return 2;
}

Result<const std::vector<FileChange>*> Committer::OverwriteChanges(const std::vector<FileChange>& adds,
                                                                   const Snapshot* latest) {
  overwrite_changes_.clear();
  if (latest != nullptr) {
    COMMITLAB_RETURN_IF_ERROR(AdvanceBase(*latest));
    for (const DataFile& f : base_.LiveFiles())
      if (InPartition(f.partition, *overwrite_partition_)) overwrite_changes_.push_back({ChangeKind::kDelete, f});
  }
  overwrite_changes_.insert(overwrite_changes_.end(), adds.begin(), adds.end());
  attempt_.changes = overwrite_changes_;
  return &overwrite_changes_;
}

// One attempt's identity, as every event of it names it.
struct Committer::Attempt {
  int64_t identifier;
  CommitKind kind;
  int number;  // 1, 2, ...: the attempt as events count it
  int64_t new_id;
  const Snapshot* latest;
  int64_t start_micros;
  std::string_view kind_name;
};

Committer::AttemptResult Committer::Fatal(const Attempt& a, EventType type, Status st) {
  EmitError(type, a.identifier, a.kind, a.number, a.new_id, st.message());
  return AttemptResult{AttemptResult::kFatal, 0, std::move(st)};
}

Committer::AttemptResult Committer::TryCommitOnce(const std::vector<FileChange>& given, int64_t identifier,
                                                  CommitKind kind, bool detect_conflicts, const Snapshot* latest,
                                                  const std::optional<int64_t>& failed_base_id, int attempt,
                                                  int64_t start_micros) {
  const int64_t latest_id = latest ? latest->id : 0;
  if (latest_id < 0 || latest_id >= kMaxSnapshotId) {  // a store that returned it is damaged; id + 1 must not overflow
    Status st = Status::Corruption(fmt::format("The latest snapshot id {} is outside 0..{}: the table is damaged.",
                                               latest_id, kMaxSnapshotId - 1));
    EmitError(EventType::kError, identifier, kind, attempt, 0, st.message());
    return AttemptResult{AttemptResult::kFatal, 0, std::move(st)};
  }
  const Attempt a{identifier, kind, attempt, latest_id + 1, latest, start_micros, CommitKindName(kind)};

  const std::vector<FileChange>* changes_ptr = &given;
  if (overwrite_partition_ != nullptr) {
    Result<const std::vector<FileChange>*> ow = OverwriteChanges(given, latest);
    if (!ow.ok()) return Fatal(a, EventType::kError, ow.status());
    changes_ptr = *ow;
  }
  const std::vector<FileChange>& changes = *changes_ptr;

  if (std::optional<AttemptResult> settled = BeforeAttempt(a, changes, failed_base_id)) return std::move(*settled);
  if (std::optional<AttemptResult> refused = StartAttempt(a, changes, detect_conflicts)) return std::move(*refused);
  PublishResult pr;
  bool injected_loss = false;
  if (std::optional<AttemptResult> stopped = WriteAndPublish(a, changes, &pr, &injected_loss))
    return std::move(*stopped);
  return PublishOutcomeOf(a, std::move(pr), injected_loss);
}

// FileStoreCommitImpl.tryCommitOnce before it builds the snapshot: after a failed publish, our
// snapshot may have landed anyway (the idempotency check); then StrictModeChecker.check, and
// update(newSnapshotId - 1). A result settles the attempt; nullopt goes on.
std::optional<Committer::AttemptResult> Committer::BeforeAttempt(const Attempt& a,
                                                                 const std::vector<FileChange>& changes,
                                                                 const std::optional<int64_t>& failed_base_id) {
  if (failed_base_id && a.latest && options_.idempotency_check) {
    Result<std::optional<int64_t>> found = FindOwnSnapshot(*failed_base_id, *a.latest, a.identifier, a.kind);
    if (!found.ok()) return Fatal(a, EventType::kError, found.status());
    if (found->has_value()) {
      ++stats_.idempotent_matches;
      ++stats_.committed;
      Emit({.type = EventType::kIdempotentMatch,
            .level = Level::kInfo,
            .identifier = a.identifier,
            .kind = a.kind,
            .attempt = a.number,
            .snapshot_id = **found,
            .message = gate_.Message("Found snapshot {} committed by user {} with identifier {} and kind {} in a "
                                     "previous attempt. Skip committing it again.",
                                     **found, user_, a.identifier, a.kind_name)});
      return AttemptResult{AttemptResult::kSuccess, **found, Status::OK()};
    }
  }
  if (std::optional<int64_t>& safe = options_.strict_mode_last_safe_snapshot) {
    if (*safe >= 0) {
      Result<std::string> refusal = StrictModeRefusal(*safe, a.new_id, a.kind, changes);
      if (!refusal.ok()) return Fatal(a, EventType::kError, refusal.status());
      if (!refusal->empty()) {
        ++stats_.conflicts;
        EmitError(EventType::kConflict, a.identifier, a.kind, a.number, a.new_id, *refusal);
        return AttemptResult{AttemptResult::kFatal, 0, Status::Conflict(*refusal)};
      }
    }
    safe = a.new_id - 1;
  }
  return std::nullopt;
}

// The attempt counted and announced, then conflict detection against the live files of the
// buckets we change. A result refuses the attempt; nullopt goes on to publish.
std::optional<Committer::AttemptResult> Committer::StartAttempt(const Attempt& a,
                                                                const std::vector<FileChange>& changes,
                                                                bool detect_conflicts) {
  ++stats_.attempts;
  if (gate_.events())
    Emit({.type = EventType::kAttempt,
          .identifier = a.identifier,
          .kind = a.kind,
          .attempt = a.number,
          .snapshot_id = a.new_id,
          .message = gate_.Message(FMT_COMPILE("Try to commit snapshot #{} by user {} with identifier {} and kind {}."),
                                   a.new_id, user_, a.identifier, a.kind_name),
          .base_snapshot = a.latest ? a.latest->id : 0,
          .changes = &changes});
  if (!a.latest || !detect_conflicts) return std::nullopt;
  if (Status st = AdvanceBase(*a.latest); !st.ok()) return Fatal(a, EventType::kError, std::move(st));
  ConflictContext ctx{options_.table, a.latest->commit_user, user_, options_.primary_key, a.kind};
  EventCause cause;
  if (Status st = CheckConflicts(base_, changes, ctx, &cause); !st.ok()) {
    ++stats_.conflicts;
    EmitError(EventType::kConflict, a.identifier, a.kind, a.number, a.new_id, st.message(), &cause);
    return AttemptResult{AttemptResult::kFatal, 0, std::move(st)};
  }
  return std::nullopt;
}

// The manifest, then snapshot N+1 published: the store's answer in *pr, or the result of a fault
// or a failed manifest write that stopped the attempt before it.
std::optional<Committer::AttemptResult> Committer::WriteAndPublish(const Attempt& a,
                                                                   const std::vector<FileChange>& changes,
                                                                   PublishResult* pr, bool* injected_loss) {
  // Manifest: written before the snapshot, garbage if the publish never lands.
  if (Status st = env_->FaultPoint(fault::kManifestBefore); !st.ok()) {
    if (st.code() == Code::kCrashed) return Fatal(a, EventType::kCrashed, std::move(st));
    return Fatal(a, EventType::kError,
                 Status::IOError(fmt::format("Exception occurs when preparing snapshot #{} by user {} with hash {} and "
                                             "kind {}. Clean up. Caused by: {}",
                                             a.new_id, user_, a.identifier, a.kind_name, st.message())));
  }
  // The attempt's snapshot is built in a member reused by every attempt: assigning into it keeps
  // the storage of its strings and file list, so a retry allocates nothing.
  Snapshot& s = attempt_;
  NextManifestName();
  env_->BeginStorageOp(StorageOp::kWriteManifest);
  Status written = store_->WriteManifest(s.delta_manifest, changes);
  env_->EndStorageOp(StorageOp::kWriteManifest);
  if (!written.ok()) return Fatal(a, EventType::kError, std::move(written));
  ++stats_.manifests_written;

  // Publish snapshot N+1: the one atomic step.
  const int64_t latest_id = a.latest ? a.latest->id : 0;
  s.id = a.new_id;
  s.parent_id = latest_id;
  s.commit_identifier = a.identifier;
  s.kind = a.kind;
  s.time_millis = env_->NowMicros() / 1000;
  s.delta_records = DeltaRecords(changes);
  s.total_records = (a.latest ? a.latest->total_records : 0) + s.delta_records;
  CheckReadyToPublish(s, changes, latest_id, user_);
  if (Status st = env_->FaultPoint(fault::kPublishBefore); !st.ok()) {
    if (st.code() == Code::kCrashed) return Fatal(a, EventType::kCrashed, std::move(st));
    // LostRace: the rename returned false, as FileSystemCatalog's commit sees a lost race.
    *injected_loss = st.code() == Code::kLostRace;
    *pr = *injected_loss ? PublishResult{PublishOutcome::kAlreadyExists, Status::OK()}
                         : PublishResult{PublishOutcome::kError, std::move(st)};
    return std::nullopt;
  }
  env_->BeginStorageOp(StorageOp::kPublish);
  *pr = store_->Publish(s);
  env_->EndStorageOp(StorageOp::kPublish);
  if (pr->outcome == PublishOutcome::kPublished) {
    if (Status after = env_->FaultPoint(fault::kPublishAfter); !after.ok()) {
      if (after.code() == Code::kCrashed) return Fatal(a, EventType::kCrashed, std::move(after));
      *pr = {PublishOutcome::kError, std::move(after)};
    }
  }
  return std::nullopt;
}

// What the store's answer makes of the attempt: a success, a lost race to retry, a refusal, or an
// unknown outcome (retried, with the idempotency check first).
Committer::AttemptResult Committer::PublishOutcomeOf(const Attempt& a, PublishResult pr, bool injected_loss) {
  switch (pr.outcome) {
    case PublishOutcome::kPublished:
      ++stats_.committed;
      if (gate_.events())
        Emit({.type = EventType::kPublished,
              .level = Level::kInfo,
              .identifier = a.identifier,
              .kind = a.kind,
              .attempt = a.number,
              .snapshot_id = a.new_id,
              .message = gate_.Message(
                  FMT_COMPILE("Successfully commit snapshot {} to table {} by user {} with identifier {} and "
                              "kind {}."),
                  a.new_id, options_.table, user_, a.identifier, a.kind_name)});
      return {AttemptResult::kSuccess, a.new_id, Status::OK()};
    case PublishOutcome::kAlreadyExists:
      ++stats_.atomic_failures;
      if (gate_.events())
        Emit({.type = EventType::kAtomicCommitFailed,
              .level = Level::kWarn,
              .identifier = a.identifier,
              .kind = a.kind,
              .attempt = a.number,
              .snapshot_id = a.new_id,
              // Not gate_.Message(): its arguments would be formatted even when no sink wants the text.
              .message =
                  gate_.messages()
                      ? fmt::format(
                            FMT_COMPILE("Atomic commit failed for snapshot #{} by user {} with identifier {} and "
                                        "kind {} after {} seconds. Skip clean up and try again."),
                            a.new_id, user_, a.identifier, a.kind_name, JavaSeconds(env_->NowMicros() - a.start_micros))
                      : std::string(),
              .injected = injected_loss});
      return {AttemptResult::kRetry, 0, Status::OK()};
    case PublishOutcome::kError:
      // NotFound is a store's known refusal (DirStore: a file the snapshot adds is gone): nothing was
      // published and no retry can bring the file back, as TableCommitImpl.checkFilesExistence's
      // refusal.
      if (pr.error.code() == Code::kNotFound) return Fatal(a, EventType::kError, std::move(pr.error));
      break;
  }
  ++stats_.unknown_outcomes;
  std::string msg = fmt::format(
      "Exception occurs when committing snapshot #{} by user {} with identifier {} and kind {}. Cannot clean up "
      "because we can't determine the success. Caused by: {}",
      a.new_id, user_, a.identifier, a.kind_name, pr.error.message());
  Emit({.type = EventType::kUnknownOutcome,
        .level = Level::kWarn,
        .identifier = a.identifier,
        .kind = a.kind,
        .attempt = a.number,
        .snapshot_id = a.new_id,
        .message = msg});
  return {AttemptResult::kRetry, 0, Status::IOError(std::move(msg))};
}

Result<std::optional<int64_t>> Committer::FindOwnSnapshot(int64_t from_id, const Snapshot& latest, int64_t identifier,
                                                          CommitKind kind) {
  auto matches = [&](const Snapshot& s) {
    return s.commit_user == user_ && s.commit_identifier == identifier && s.kind == kind;
  };
  for (int64_t id = from_id + 1; id < latest.id; ++id) {
    env_->BeginStorageOp(StorageOp::kReadSnapshot);
    Result<SnapshotRef> s = store_->ReadSnapshotRef(id);
    env_->EndStorageOp(StorageOp::kReadSnapshot);
    if (!s.ok()) return s.status();
    if (matches(**s)) return std::optional<int64_t>(id);
  }
  if (latest.id > from_id && matches(latest)) return std::optional<int64_t>(latest.id);
  return std::optional<int64_t>();
}

Status Committer::AdvanceBase(const Snapshot& latest) {
  if (latest.id < base_.snapshot_id()) base_ = TableState();  // the table went back: rebuild
  for (int64_t id = base_.snapshot_id() + 1; id < latest.id; ++id) {
    env_->BeginStorageOp(StorageOp::kReadSnapshot);
    Result<SnapshotRef> s = store_->ReadSnapshotRef(id);
    env_->EndStorageOp(StorageOp::kReadSnapshot);
    if (!s.ok()) return s.status();
    COMMITLAB_CHECK((*s)->id == id, "a store returns the snapshot asked for (SnapshotStore::ReadSnapshot)");
    COMMITLAB_RETURN_IF_ERROR(base_.Apply(**s));
  }
  if (latest.id > base_.snapshot_id()) COMMITLAB_RETURN_IF_ERROR(base_.Apply(latest));
  COMMITLAB_CHECK(base_.snapshot_id() == latest.id, "the base is replayed up to the latest snapshot, no further");
  return Status::OK();
}

Result<std::vector<Committable>> Committer::FilterCommitted(std::vector<Committable> committables) {
  for (size_t i = 1; i < committables.size(); ++i) {
    if (committables[i].identifier <= committables[i - 1].identifier)
      return Status::InvalidArgument(
          "Committables must be sorted according to identifiers before filtering. This is unexpected.");
  }
  env_->BeginStorageOp(StorageOp::kReadLatest);
  Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
  env_->EndStorageOp(StorageOp::kReadLatest);
  if (!latest.ok()) return latest.status();
  std::optional<int64_t> newest;  // newest identifier this user has committed
  if (latest->has_value()) {
    if ((*latest)->commit_user == user_) newest = (*latest)->commit_identifier;
    for (int64_t id = (*latest)->id - 1; !newest && id >= 1; --id) {
      env_->BeginStorageOp(StorageOp::kReadSnapshot);
      Result<SnapshotRef> s = store_->ReadSnapshotRef(id);
      env_->EndStorageOp(StorageOp::kReadSnapshot);
      if (!s.ok()) return s.status();
      COMMITLAB_CHECK((*s)->id == id, "a store returns the snapshot asked for (SnapshotStore::ReadSnapshot)");
      if ((*s)->commit_user == user_) newest = (*s)->commit_identifier;
    }
  }
  if (!newest) return committables;
  std::vector<Committable> kept;
  for (Committable& c : committables)
    if (c.identifier > *newest) kept.push_back(std::move(c));
  const size_t dropped = committables.size() - kept.size();
  Emit({.type = EventType::kFiltered,
        .identifier = *newest,
        .message =
            gate_.Message("Filtered {} committed committable(s) of user {}: its newest committed identifier is {}.",
                          dropped, user_, *newest)});
  return kept;
}

namespace {

// Whether any change of `changes` lies in one of `partitions` (StrictModeChecker.hasOverlappedPartition;
// an unpartitioned table's files all share the partition "", so they always overlap).
bool TouchesPartition(const std::vector<FileChange>& changes, const std::set<std::string_view>& partitions) {
  for (const FileChange& c : changes)
    if (partitions.contains(c.file.partition)) return true;
  return false;
}

}  // namespace

// StrictModeChecker.check (paimon-core .../operation/commit/StrictModeChecker.java): the partitions
// this commit changes (ManifestEntryChanges.changedPartitions) against each other user's snapshot.
Result<std::string> Committer::StrictModeRefusal(int64_t last_safe, int64_t new_id, CommitKind kind,
                                                 const std::vector<FileChange>& changes) {
  if (last_safe >= new_id - 1) return std::string();
  std::set<std::string_view> partitions;
  for (const FileChange& c : changes) partitions.insert(c.file.partition);
  if (partitions.empty()) return std::string();  // hasOverlapped*Partition: nothing changed, nothing overlaps
  for (int64_t id = last_safe + 1; id < new_id; ++id) {
    env_->BeginStorageOp(StorageOp::kReadSnapshot);
    Result<SnapshotRef> read = store_->ReadSnapshotRef(id);
    env_->EndStorageOp(StorageOp::kReadSnapshot);
    if (!read.ok()) return read.status();
    const SnapshotRef& s = *read;
    COMMITLAB_CHECK(s->id == id, "a store returns the snapshot asked for (SnapshotStore::ReadSnapshot)");
    if (s->commit_user == user_) continue;
    // commitlab keeps no index files (deletion vectors), so only the data files' partitions count:
    // hasOverlappedDataPartition over the snapshot's delta, ADDs and DELETEs alike.
    if ((s->kind == CommitKind::kCompact || s->kind == CommitKind::kOverwrite) &&
        TouchesPartition(s->changes, partitions)) {
      return fmt::format(
          "When trying to commit snapshot {}, commit user {} has found a {} snapshot (id: {}) by another "
          "user {} which modified the same partition. Giving up committing as "
          "commit.strict-mode.last-safe-snapshot is set.",
          new_id, user_, CommitKindName(s->kind), id, s->commit_user);
    }
    // Every bucket here is a real (fixed) bucket, so onlyReadRealBuckets keeps every file.
    if (s->kind == CommitKind::kAppend && kind == CommitKind::kOverwrite && TouchesPartition(s->changes, partitions)) {
      return fmt::format(
          "When trying to commit snapshot {}, commit user {} has found a APPEND snapshot (id: {}) by "
          "another user {} which committed files to fixed bucket on the same partition. Giving up committing "
          "as commit.strict-mode.last-safe-snapshot is set.",
          new_id, user_, id, s->commit_user);
    }
  }
  return std::string();
}

bool Committer::DataFileExists(const DataFile& f) {
  env_->BeginStorageOp(StorageOp::kCheckData);
  const bool exists = store_->DataFileExists(f);
  env_->EndStorageOp(StorageOp::kCheckData);
  return exists;
}

Result<int> Committer::FilterAndCommit(std::vector<Committable> committables) {
  COMMITLAB_ASSIGN_OR_RETURN(std::vector<Committable> kept, FilterCommitted(std::move(committables)));
  // TableCommitImpl.checkFilesExistence: new files, compactBefore and compactAfter.
  std::vector<std::string> missing;
  for (const Committable& c : kept) {
    for (const FileChange& ch : c.append_changes)
      if (ch.kind == ChangeKind::kAdd && !DataFileExists(ch.file)) missing.push_back(ch.file.name);
    for (const FileChange& ch : c.compact_changes)
      if (!DataFileExists(ch.file)) missing.push_back(ch.file.name);
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& n : missing) names += (names.empty() ? "" : ",") + n;
    return Status::NotFound(
        "Cannot recover from this checkpoint because some files in the snapshot that need to be resubmitted have "
        "been deleted:\n    " +
        names +
        "\n    The most likely reason is because you are recovering from a very old savepoint that contains some "
        "uncommitted files that have already been deleted.");
  }
  int committed = 0;
  for (const Committable& c : kept) {
    COMMITLAB_RETURN_IF_ERROR((Commit(c, /*check_append_files=*/true)).status());
    ++committed;
  }
  return committed;
}

}  // namespace commitlab::paimon
