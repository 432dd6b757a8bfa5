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

}  // namespace

Status CheckConflicts(const TableState& base, const std::vector<FileChange>& delta, const ConflictContext& ctx,
                      EventCause* cause) {
  auto blame = [cause](CauseKind kind, std::vector<std::string> files) {
    if (cause != nullptr) *cause = {.kind = kind, .files = std::move(files)};
  };
  std::set<BucketKey> touched;
  for (const FileChange& c : delta) touched.emplace(c.file.partition, c.file.bucket);

  // The base entries are listed only in a refusal, so they are collected only then.
  auto conflict = [&](std::string_view headline, std::string_view caused_by) {
    std::vector<FileChange> base_entries;
    for (const auto& [partition, bucket] : touched) {
      if (const TableState::BucketFiles* files = base.Bucket(partition, bucket)) {
        for (const auto& [level, by_name] : *files)
          for (const auto& [name, f] : by_name) base_entries.push_back({ChangeKind::kAdd, f});
      }
    }
    return Status::Conflict(ConflictMessage(headline, ctx, base_entries, delta, caused_by));
  };

  // 0. ConflictDetection.checkBucketKeepSame: base entries (in commit order), then the delta; the
  // first count seen in a partition is its count.
  if (ctx.kind != CommitKind::kOverwrite) {
    std::map<std::string, int32_t> seen;
    for (const FileChange& c : delta) {
      const std::string& p = c.file.partition;
      if (seen.count(p) != 0) continue;
      seen[p] = 0;
      for (int32_t n : base.TotalBucketsInCommitOrder(p)) {
        int32_t& old = seen[p];
        if (old == 0) old = n;
        if (n == old) continue;
        blame(CauseKind::kBucketCount, {});
        return conflict(fmt::format("Total buckets of partition {} changed from {} to {} without overwrite. Give up "
                                    "committing.",
                                    PartitionSimpleString(p), old, n),
                        "");
      }
    }
    for (const FileChange& c : delta) {
      if (c.file.total_buckets <= 0) continue;
      int32_t& old = seen[c.file.partition];
      if (old == 0) old = c.file.total_buckets;
      if (c.file.total_buckets == old) continue;
      blame(CauseKind::kBucketCount, {c.file.name});
      return conflict(fmt::format("Total buckets of partition {} changed from {} to {} without overwrite. Give up "
                                  "committing.",
                                  PartitionSimpleString(c.file.partition), old, c.file.total_buckets),
                      "");
    }
  }

  auto add_conflict = [&](const DataFile& f, const FileChange& in_map) {
    blame(CauseKind::kFileDeletion, {f.name});
    return conflict(kFileDeletionConflict, fmt::format("Trying to add file {} which is already in the the map: {}",
                                                       f.name, FormatChange(in_map)));
  };

  // 1. The delta alone (ConflictDetection.checkConflicts, FileEntry.mergeEntries(deltaEntries)):
  // deleting and re-adding one file in one commit could lose it, since scans deduplicate by name.
  std::map<FileKey, const FileChange*> own;
  for (const FileChange& c : delta) {
    auto it = own.find(KeyOf(c.file));
    if (c.kind == ChangeKind::kAdd) {
      if (it != own.end()) return add_conflict(c.file, *it->second);
      own.emplace(KeyOf(c.file), &c);
    } else if (it != own.end()) {
      own.erase(it);
    } else {
      own.emplace(KeyOf(c.file), &c);
    }
  }

  // 2. The delta over the base, as FileEntry.mergeEntries(base ++ delta): the base's files are in
  // the map as ADDs. An ADD of a file in the map fails at once; a DELETE removes the file's entry,
  // or stays in the map when there is none; a DELETE still there after the merge fails
  // (checkDeleteInEntries), the first in the map's insertion order.
  enum class Merged { kGone, kAdded, kLeftoverDelete };
  struct Entry {
    Merged state;
    const FileChange* change;
    size_t order;  // when it entered the map
  };
  std::map<FileKey, Entry> merged;  // the files the delta touched; the others are as in the base
  auto live = [&](const DataFile& f) {
    auto it = merged.find(KeyOf(f));
    return it != merged.end() ? it->second.state == Merged::kAdded : base.IsLive(f);
  };
  size_t order = 0;
  for (const FileChange& c : delta) {
    const DataFile& f = c.file;
    auto it = merged.find(KeyOf(f));
    const bool in_map = it != merged.end() ? it->second.state != Merged::kGone : base.IsLive(f);
    if (c.kind == ChangeKind::kAdd) {
      if (in_map) return add_conflict(f, it != merged.end() ? *it->second.change : FileChange{ChangeKind::kAdd, f});
      merged.insert_or_assign(KeyOf(f), Entry{Merged::kAdded, &c, order++});
    } else if (in_map) {
      merged.insert_or_assign(KeyOf(f), Entry{Merged::kGone, &c, order++});
    } else {
      merged.insert_or_assign(KeyOf(f), Entry{Merged::kLeftoverDelete, &c, order++});
    }
  }
  const Entry* leftover = nullptr;
  for (const auto& [key, e] : merged)
    if (e.state == Merged::kLeftoverDelete && (leftover == nullptr || e.order < leftover->order)) leftover = &e;
  if (leftover != nullptr) {
    const DataFile& f = leftover->change->file;
    blame(CauseKind::kFileDeletion, {f.name});
    return conflict(
        kFileDeletionConflict,
        fmt::format("Trying to delete file {} for table {} which is not previously added.", f.name, ctx.table));
  }
  COMMITLAB_DCHECK(MergesCleanly(base, delta),
                   "a delta that passed the file checks merges into its base as FileEntry.mergeEntries does");
  if (!ctx.primary_key) return Status::OK();

  // LSM: within one (partition, bucket, level >= 1), closed key ranges must not touch. Only levels
  // the delta ADDs to can newly overlap.
  std::set<std::tuple<std::string, int32_t, int32_t>> levels;
  for (const FileChange& c : delta)
    if (c.kind == ChangeKind::kAdd && c.file.level >= 1) levels.emplace(c.file.partition, c.file.bucket, c.file.level);
  for (const auto& [partition, bucket, level] : levels) {
    std::vector<DataFile> files;
    if (const TableState::BucketFiles* b = base.Bucket(partition, bucket)) {
      if (auto it = b->find(level); it != b->end())
        for (const auto& [name, f] : it->second)
          if (live(f)) files.push_back(f);
    }
    for (const FileChange& c : delta)
      if (c.kind == ChangeKind::kAdd && c.file.partition == partition && c.file.bucket == bucket &&
          c.file.level == level && live(c.file))
        files.push_back(c.file);
    std::sort(files.begin(), files.end(), [](const DataFile& a, const DataFile& b) {
      return std::tie(a.min_key, a.max_key, a.name) < std::tie(b.min_key, b.max_key, b.name);
    });
    for (size_t i = 1; i < files.size(); ++i) {
      if (files[i - 1].max_key >= files[i].min_key) {
        blame(CauseKind::kLsm, {files[i - 1].name, files[i].name});
        std::string headline = fmt::format("{} Conflict files are:\n{}\n{}", kLsmConflict, DescribeFile(files[i - 1]),
                                           DescribeFile(files[i]));
        return conflict(headline, fmt::format("Key ranges [{}, {}] and [{}, {}] overlap in level {} of bucket {}.",
                                              files[i - 1].min_key, files[i - 1].max_key, files[i].min_key,
                                              files[i].max_key, level, bucket));
      }
    }
  }
  return Status::OK();
}

}  // namespace commitlab::paimon
