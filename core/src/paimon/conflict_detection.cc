#include "commitlab/core/paimon/conflict_detection.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "commitlab/core/check.h"

namespace commitlab::paimon {
namespace {

// Paimon's createConflictException prints at most this many base entries and changes.
constexpr size_t kMaxListedEntries = 50;

using BucketKey = std::pair<std::string, int32_t>;
using FileKey = std::tuple<std::string, int32_t, int32_t, std::string>;  // partition, bucket, level, name

FileKey KeyOf(const DataFile& f) { return {f.partition, f.bucket, f.level, f.name}; }

std::string ConflictMessage(std::string_view headline, const ConflictContext& ctx,
                            const std::vector<FileChange>& base_entries, const std::vector<FileChange>& delta,
                            std::string_view cause) {
  std::string m(headline);
  m +=
      "\n\nDon't panic!\n"
      "Conflicts during commits are normal and this failure is intended to resolve the conflicts.\n"
      "Conflicts are mainly caused by the following scenarios:\n"
      "1. Multiple jobs are writing into the same partition at the same time, or you use STATEMENT SET to execute multiple INSERT statements into the same Paimon table.\n"
      "   You'll probably see different base commit user and current commit user below.\n"
      "   You can use https://paimon.apache.org/docs/master/maintenance/dedicated-compaction#dedicated-compaction-job to support multiple writing.\n"
      "2. You're recovering from an old savepoint, or you're creating multiple jobs from a savepoint.\n"
      "   The job will fail continuously in this scenario to protect metadata from corruption.\n"
      "   You can either recover from the latest savepoint, or you can revert the table to the snapshot corresponding to the old savepoint.\n\n";
  m += fmt::format("Base commit user is: {}; Current commit user is: {}\n\n", ctx.base_commit_user,
                   ctx.current_commit_user);
  auto list = [&m](const std::vector<FileChange>& entries) {
    for (size_t i = 0; i < entries.size() && i < kMaxListedEntries; ++i) m += FormatChange(entries[i]) + "\n";
  };
  m += "Base entries are:\n";
  list(base_entries);
  m += "\nChanges are:\n";
  list(delta);
  if (base_entries.size() > kMaxListedEntries || delta.size() > kMaxListedEntries)
    m += "The entry list above are not fully displayed, please refer to taskmanager.log for more information.\n";
  if (!cause.empty()) m += fmt::format("\nCaused by: {}", cause);
  return m;
}

// InternalRowPartitionComputer.partToSimpleString: the values joined by "-" ("" unpartitioned).
std::string PartitionSimpleString(std::string_view partition) {
  std::string out;
  while (!partition.empty()) {
    const size_t slash = partition.find('/');
    const std::string_view part = partition.substr(0, slash);
    const size_t eq = part.find('=');
    if (!out.empty()) out += '-';
    out += part.substr(eq == std::string_view::npos ? 0 : eq + 1);
    if (slash == std::string_view::npos) break;
    partition.remove_prefix(slash + 1);
  }
  return out;
}

std::string DescribeFile(const DataFile& f) {
  return fmt::format("{}, bucket {}, level {}, file {}, minKey {}, maxKey {}", f.partition.empty() ? "{}" : f.partition,
                     f.bucket, f.level, f.name, f.min_key, f.max_key);
}

// FileEntry.mergeEntries(base ++ delta) done plainly, for a check of the bookkeeping below: an ADD
// of a file in the map fails, a DELETE removes the file's entry or stays as a DELETE, and no DELETE
// may be left at the end. Not TableState::Apply's rule, which is stricter: upstream lets a delta
// delete a live file three times (the second DELETE stays, the third removes it).
bool MergesCleanly(const TableState& base, const std::vector<FileChange>& delta) {
  enum Entry { kAbsent, kAdd, kDelete };
  std::map<FileKey, Entry> map;  // the files the delta touched; the others are as in the base
  for (const FileChange& c : delta) {
    Entry& e = map.try_emplace(KeyOf(c.file), base.IsLive(c.file) ? kAdd : kAbsent).first->second;
    if (c.kind == ChangeKind::kAdd) {
      if (e != kAbsent) return false;
      e = kAdd;
    } else {
      e = e == kAbsent ? kDelete : kAbsent;
    }
  }
  return std::none_of(map.begin(), map.end(), [](const auto& kv) { return kv.second == kDelete; });
}

// The base and delta one CheckConflicts call checks, and the refusal each of its steps may make.
class ConflictCheck {
 public:
  ConflictCheck(const TableState& base, const std::vector<FileChange>& delta, const ConflictContext& ctx,
                EventCause* cause)
      : base_(base), delta_(delta), ctx_(ctx), cause_(cause) {}

  Status CheckBucketKeepSame() const;
  Status CheckDeltaAlone() const;
  Status CheckDeleteInEntries();
  Status CheckKeyRanges() const;

 private:
  // What FileEntry.mergeEntries(base ++ delta) made of a file the delta touched.
  enum class Merged { kGone, kAdded, kLeftoverDelete };
  struct MergedEntry {
    Merged state;
    const FileChange* change;
    size_t order;  // when it entered the map
  };

  // createConflictException: `cause` gets the kind and files, the message lists the base entries of
  // the buckets the delta touches (collected only for a refusal) and the delta.
  Status Refuse(CauseKind kind, std::vector<std::string> files, std::string_view headline,
                std::string_view caused_by) const;
  Status RefuseBucketCount(const std::string& partition, int32_t old, int32_t now,
                           std::vector<std::string> files) const;
  // An ADD of a file already in the map (FileEntry.mergeEntries' checkState).
  Status RefuseAdd(const DataFile& f, const FileChange& in_map) const;
  // Live after the merge: as the merge left it, or as in the base for a file the delta did not touch.
  bool LiveAfterMerge(const DataFile& f) const {
    auto it = merged_.find(KeyOf(f));
    return it != merged_.end() ? it->second.state == Merged::kAdded : base_.IsLive(f);
  }

  const TableState& base_;
  const std::vector<FileChange>& delta_;
  const ConflictContext& ctx_;
  EventCause* cause_;
  std::map<FileKey, MergedEntry> merged_;  // the files the delta touched; the others are as in the base
};

Status ConflictCheck::Refuse(CauseKind kind, std::vector<std::string> files, std::string_view headline,
                             std::string_view caused_by) const {
  if (cause_ != nullptr) *cause_ = {.kind = kind, .files = std::move(files)};
  std::set<BucketKey> touched;
  for (const FileChange& c : delta_) touched.emplace(c.file.partition, c.file.bucket);
  std::vector<FileChange> base_entries;
  for (const auto& [partition, bucket] : touched) {
    if (const TableState::BucketFiles* files_in = base_.Bucket(partition, bucket)) {
      for (const auto& [level, by_name] : *files_in)
        for (const auto& [name, f] : by_name) base_entries.push_back({ChangeKind::kAdd, f});
    }
  }
  return Status::Conflict(ConflictMessage(headline, ctx_, base_entries, delta_, caused_by));
}

Status ConflictCheck::RefuseBucketCount(const std::string& partition, int32_t old, int32_t now,
                                        std::vector<std::string> files) const {
  return Refuse(CauseKind::kBucketCount, std::move(files),
                fmt::format("Total buckets of partition {} changed from {} to {} without overwrite. Give up "
                            "committing.",
                            PartitionSimpleString(partition), old, now),
                "");
}

Status ConflictCheck::RefuseAdd(const DataFile& f, const FileChange& in_map) const {
  return Refuse(CauseKind::kFileDeletion, {f.name}, kFileDeletionConflict,
                fmt::format("Trying to add file {} which is already in the the map: {}", f.name, FormatChange(in_map)));
}

// 0. ConflictDetection.checkBucketKeepSame: base entries (in commit order), then the delta; the
// first count seen in a partition is its count. An OVERWRITE may change it.
Status ConflictCheck::CheckBucketKeepSame() const {
  if (ctx_.kind == CommitKind::kOverwrite) return Status::OK();
  std::map<std::string, int32_t> seen;
  for (const FileChange& c : delta_) {
    const std::string& p = c.file.partition;
    if (seen.count(p) != 0) continue;
    seen[p] = 0;
    for (int32_t n : base_.TotalBucketsInCommitOrder(p)) {
      int32_t& old = seen[p];
      if (old == 0) old = n;
      if (n != old) return RefuseBucketCount(p, old, n, {});
    }
  }
  for (const FileChange& c : delta_) {
    if (c.file.total_buckets <= 0) continue;
    int32_t& old = seen[c.file.partition];
    if (old == 0) old = c.file.total_buckets;
    if (c.file.total_buckets != old)
      return RefuseBucketCount(c.file.partition, old, c.file.total_buckets, {c.file.name});
  }
  return Status::OK();
}

// 1. The delta alone (ConflictDetection.checkConflicts, FileEntry.mergeEntries(deltaEntries)):
// deleting and re-adding one file in one commit could lose it, since scans deduplicate by name.
Status ConflictCheck::CheckDeltaAlone() const {
  std::map<FileKey, const FileChange*> own;
  for (const FileChange& c : delta_) {
    auto it = own.find(KeyOf(c.file));
    if (c.kind == ChangeKind::kAdd) {
      if (it != own.end()) return RefuseAdd(c.file, *it->second);
      own.emplace(KeyOf(c.file), &c);
    } else if (it != own.end()) {
      own.erase(it);
    } else {
      own.emplace(KeyOf(c.file), &c);
    }
  }
  return Status::OK();
}

// 2. The delta over the base, as FileEntry.mergeEntries(base ++ delta): the base's files are in
// the map as ADDs. An ADD of a file in the map fails at once; a DELETE removes the file's entry,
// or stays in the map when there is none; a DELETE still there after the merge fails
// (checkDeleteInEntries), the first in the map's insertion order. Keeps the merge for step 3.
Status ConflictCheck::CheckDeleteInEntries() {
  size_t order = 0;
  for (const FileChange& c : delta_) {
    const DataFile& f = c.file;
    auto it = merged_.find(KeyOf(f));
    const bool in_map = it != merged_.end() ? it->second.state != Merged::kGone : base_.IsLive(f);
    if (c.kind == ChangeKind::kAdd) {
      if (in_map) return RefuseAdd(f, it != merged_.end() ? *it->second.change : FileChange{ChangeKind::kAdd, f});
      merged_.insert_or_assign(KeyOf(f), MergedEntry{Merged::kAdded, &c, order++});
    } else if (in_map) {
      merged_.insert_or_assign(KeyOf(f), MergedEntry{Merged::kGone, &c, order++});
    } else {
      merged_.insert_or_assign(KeyOf(f), MergedEntry{Merged::kLeftoverDelete, &c, order++});
    }
  }
  const MergedEntry* leftover = nullptr;
  for (const auto& [key, e] : merged_)
    if (e.state == Merged::kLeftoverDelete && (leftover == nullptr || e.order < leftover->order)) leftover = &e;
  if (leftover != nullptr) {
    const DataFile& f = leftover->change->file;
    return Refuse(
        CauseKind::kFileDeletion, {f.name}, kFileDeletionConflict,
        fmt::format("Trying to delete file {} for table {} which is not previously added.", f.name, ctx_.table));
  }
  COMMITLAB_DCHECK(MergesCleanly(base_, delta_),
                   "a delta that passed the file checks merges into its base as FileEntry.mergeEntries does");
  return Status::OK();
}

// 3. PrimaryKeyConflictDetection.checkTableSpecificConflicts: within one (partition, bucket,
// level >= 1) of the merged files, closed key ranges must not touch. Only levels the delta ADDs to
// can newly overlap.
Status ConflictCheck::CheckKeyRanges() const {
  std::set<std::tuple<std::string, int32_t, int32_t>> levels;
  for (const FileChange& c : delta_)
    if (c.kind == ChangeKind::kAdd && c.file.level >= 1) levels.emplace(c.file.partition, c.file.bucket, c.file.level);
  for (const auto& [partition, bucket, level] : levels) {
    std::vector<DataFile> files;
    if (const TableState::BucketFiles* b = base_.Bucket(partition, bucket)) {
      if (auto it = b->find(level); it != b->end())
        for (const auto& [name, f] : it->second)
          if (LiveAfterMerge(f)) files.push_back(f);
    }
    for (const FileChange& c : delta_)
      if (c.kind == ChangeKind::kAdd && c.file.partition == partition && c.file.bucket == bucket &&
          c.file.level == level && LiveAfterMerge(c.file))
        files.push_back(c.file);
    std::sort(files.begin(), files.end(), [](const DataFile& a, const DataFile& b) {
      return std::tie(a.min_key, a.max_key, a.name) < std::tie(b.min_key, b.max_key, b.name);
    });
    for (size_t i = 1; i < files.size(); ++i) {
      const DataFile& a = files[i - 1];
      const DataFile& b = files[i];
      if (a.max_key < b.min_key) continue;
      return Refuse(CauseKind::kLsm, {a.name, b.name},
                    fmt::format("{} Conflict files are:\n{}\n{}", kLsmConflict, DescribeFile(a), DescribeFile(b)),
                    fmt::format("Key ranges [{}, {}] and [{}, {}] overlap in level {} of bucket {}.", a.min_key,
                                a.max_key, b.min_key, b.max_key, level, bucket));
    }
  }
  return Status::OK();
}

}  // namespace

// ConflictDetection.checkConflicts, its steps in upstream's order.
Status CheckConflicts(const TableState& base, const std::vector<FileChange>& delta, const ConflictContext& ctx,
                      EventCause* cause) {
  ConflictCheck check(base, delta, ctx, cause);
  COMMITLAB_RETURN_IF_ERROR(check.CheckBucketKeepSame());
  COMMITLAB_RETURN_IF_ERROR(check.CheckDeltaAlone());
  COMMITLAB_RETURN_IF_ERROR(check.CheckDeleteInEntries());
  if (!ctx.primary_key) return Status::OK();
  return check.CheckKeyRanges();
}

}  // namespace commitlab::paimon
