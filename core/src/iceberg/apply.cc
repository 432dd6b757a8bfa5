#include "commitlab/core/iceberg/apply.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/expression.h"
#include "commitlab/core/iceberg/validation.h"

namespace commitlab::iceberg {
namespace {

int64_t Records(const std::vector<FileRef>& files) {
  int64_t n = 0;
  for (const FileRef& f : files) n += f->file.row_count;
  return n;
}

// The next version of `base`: what every metadata change shares.
TableMetadata NextVersion(const TableMetadata& base, const ApplyContext& ctx) {
  TableMetadata next = base;
  next.version = base.version + 1;
  next.location = ctx.metadata_location;
  next.last_updated_ms = ctx.timestamp_ms;
  next.metadata_log.Append(base.location, base.last_updated_ms);
  return next;
}

// The live files `op` removes from `live`: explicit files, or (overwrite) every file its row
// filter matches in full, as ManifestFilterManager's deleteByRowFilter does on the refreshed base.
Result<std::vector<FileRef>> FilesToDelete(const Operation& op, const FileSet& live) {
  switch (op.kind) {
    case OperationKind::kOverwriteByFilter: {
      std::vector<FileRef> out;
      for (const auto& entry : live) {
        const IcebergDataFile& f = *entry.second;
        if (!CanContainMatches(op.filter, f)) continue;
        if (!AllRowsMatch(op.filter, f)) return ValidationFailure(PartialDeleteMessage(op.filter, f.path()));
        out.push_back(entry.second);
      }
      return out;
    }
    case OperationKind::kRewrite:
    case OperationKind::kDeleteFiles:
    case OperationKind::kDeleteByFilter: {
      COMMITLAB_RETURN_IF_ERROR(ValidateRequiredDeletes(live, op.files_to_delete));
      std::vector<FileRef> out;
      for (const FileRef& f : op.files_to_delete) {
        // Deleting a path drops every entry for it (a path added twice goes at once).
        auto [lo, hi] = live.equal_range(f->path());
        for (auto it = lo; it != hi; ++it)
          if (std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
      }
      return out;
    }
    case OperationKind::kReplacePartitions: {
      // dropPartition per added file; an unpartitioned table drops everything.
      const bool whole_table = ReplacesWholeTable(op);
      std::vector<FileRef> out;
      for (const auto& entry : live) {
        const std::string& p = entry.second->file.partition;
        if (!whole_table &&
            std::find(op.replaced_partitions.begin(), op.replaced_partitions.end(), p) == op.replaced_partitions.end())
          continue;
        // failAnyDelete's DeleteException, re-thrown by BaseReplacePartitions.apply.
        if (op.replace_validation.append_only)
          return ValidationFailure(fmt::format("Cannot commit file that conflicts with existing partition: {}", p));
        out.push_back(entry.second);
      }
      return out;
    }
    default: return std::vector<FileRef>{};
  }
}

// The live delete files `op` drops: a ReplacePartitions those of its partitions with their data
// (dropPartition registers the delete manifests too), an overwrite by row filter those whose
// partition makes the filter hold for every row (deleteByRowFilter on the delete manifests).
std::vector<FileRef> DeleteFilesToDrop(const Operation& op, const FileSet& live_deletes) {
  std::vector<FileRef> out;
  for (const auto& entry : live_deletes) {
    const std::string& p = entry.second->file.partition;
    bool drop = false;
    switch (op.kind) {
      case OperationKind::kReplacePartitions:
        drop = ReplacesWholeTable(op) || std::find(op.replaced_partitions.begin(), op.replaced_partitions.end(), p) !=
                                             op.replaced_partitions.end();
        break;
      // A copy-on-write delete names its files (deleteFile): only a row filter reaches deletes.
      case OperationKind::kOverwriteByFilter: drop = HoldsForPartition(op.filter, p); break;
      default: break;
    }
    if (drop) out.push_back(entry.second);
  }
  return out;
}

// The rows live after `s`. SnapshotProducer.summary(previous) carries totals over (updateTotal):
// the parent's total-records plus the rows `s` added, minus every entry it removed; without a
// parent total to build on, the live files are counted.
int64_t TotalRecords(const Snapshot* parent, const Snapshot& s) {
  auto count_live = [&] {
    int64_t counted = 0;
    for (const auto& entry : *s.live_files) counted += entry.second->file.row_count;
    return counted;
  };
  if (parent == nullptr) return Records(s.added_files);
  const auto it = parent->summary.find("total-records");
  if (it == parent->summary.end()) return count_live();
  const std::string& text = it->second;
  int64_t total = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), total);
  if (ec != std::errc() || end != text.data() + text.size() || total < 0) return count_live();
  // A removed path takes every entry it had in the parent (a path added twice goes at once).
  std::vector<std::string_view> removed;
  for (const FileRef& f : s.deleted_files) removed.push_back(f->path());
  std::sort(removed.begin(), removed.end());
  removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
  for (std::string_view path : removed) {
    auto [lo, hi] = parent->live_files->equal_range(path);
    for (auto e = lo; e != hi; ++e) total -= e->second->file.row_count;
  }
  // A parent total that disagrees with its files (a summary read from outside) shows here at the
  // latest; the files are the truth.
  if (total < 0 || __builtin_add_overflow(total, Records(s.added_files), &total)) return count_live();
  return total;
}

Result<TableMetadata> ApplySnapshot(const Operation& op, const TableMetadata& base, const ApplyContext& ctx) {
  COMMITLAB_CHECK(SnapshotOperation(op).has_value(), "ApplyOperation sends only snapshot operations here");
  SnapshotRef parent = base.CurrentSnapshot();
  COMMITLAB_ASSIGN_OR_RETURN(std::vector<FileRef> deleted, FilesToDelete(op, base.LiveFiles()));
  std::vector<FileRef> dropped_deletes = DeleteFilesToDrop(op, base.LiveDeletes());
  if (op.kind == OperationKind::kReplacePartitions && op.replace_validation.append_only && !dropped_deletes.empty()) {
    // failAnyDelete is set on the delete manifests' filter too.
    return ValidationFailure(fmt::format("Cannot commit file that conflicts with existing partition: {}",
                                         dropped_deletes.front()->file.partition));
  }

  // A table read from a catalog may carry any number: never overflow (a wedged table, not UB).
  if (base.last_sequence_number < 0 || base.last_sequence_number == INT64_MAX)
    return Status::Corruption(fmt::format("table {}: last-sequence-number {} leaves no next sequence number",
                                          base.table_name, base.last_sequence_number));
  Snapshot change;
  change.snapshot_id = ctx.snapshot_id;
  change.parent_id = base.current_snapshot_id;
  change.sequence_number = base.last_sequence_number + 1;
  change.timestamp_ms = ctx.timestamp_ms;
  change.operation = *SnapshotOperation(op);
  change.committed_by = ctx.committed_by;
  change.schema_id = base.current_schema_id;
  change.manifest_list = ctx.manifest_list;
  change.added_files = op.files_to_add;
  change.deleted_files = std::move(deleted);
  change.added_delete_files = op.deletes_to_add;
  change.removed_delete_files = std::move(dropped_deletes);
  std::shared_ptr<Snapshot> s = BuildSnapshot(parent.get(), std::move(change), ctx.added_manifest);

  const int64_t total_records = TotalRecords(parent.get(), *s);
  // SnapshotSummary: added-* and deleted-* only when non-zero, totals always. Added in key order at
  // the end of the empty summary: no search, and each key is built once, in its node.
  COMMITLAB_DCHECK(s->summary.empty(), "a new snapshot's summary is written here only");
  auto add = [&](std::string_view key, std::string value) {
    s->summary.emplace_hint(s->summary.end(), key, std::move(value));
  };
  auto add_if = [&](std::string_view key, int64_t n) {
    if (n > 0) add(key, std::to_string(n));
  };
  add_if("added-data-files", static_cast<int64_t>(s->added_files.size()));
  add_if("added-delete-files", static_cast<int64_t>(s->added_delete_files.size()));
  add_if("added-records", Records(s->added_files));
  add_if("deleted-data-files", static_cast<int64_t>(s->deleted_files.size()));
  add_if("deleted-records", Records(s->deleted_files));
  add_if("removed-delete-files", static_cast<int64_t>(s->removed_delete_files.size()));
  if (op.kind == OperationKind::kReplacePartitions) add("replace-partitions", "true");
  add("total-data-files", std::to_string(s->live_files->size()));
  add("total-records", std::to_string(total_records));

  TableMetadata next = NextVersion(base, ctx);
  next.last_sequence_number = s->sequence_number;
  next.current_snapshot_id = s->snapshot_id;
  next.snapshots.push_back(std::move(s));
  return next;
}

}  // namespace

std::optional<DataOperation> SnapshotOperation(const Operation& op) {
  switch (op.kind) {
    case OperationKind::kAppend: return DataOperation::kAppend;
    case OperationKind::kOverwriteByFilter:
      // A row filter counts as a delete whether or not it matches anything.
      return op.files_to_add.empty() ? DataOperation::kDelete : DataOperation::kOverwrite;
    case OperationKind::kDeleteByFilter:
      return op.files_to_add.empty() ? DataOperation::kDelete : DataOperation::kOverwrite;
    case OperationKind::kReplacePartitions: return DataOperation::kOverwrite;
    case OperationKind::kRewrite: return DataOperation::kReplace;
    case OperationKind::kRowDelta: {
      // BaseRowDelta.operation(): rows only -> append, deletes only -> delete.
      const bool rows = !op.files_to_add.empty();
      const bool deletes = !op.deletes_to_add.empty();
      if (rows && !deletes) return DataOperation::kAppend;
      if (deletes && !rows) return DataOperation::kDelete;
      return DataOperation::kOverwrite;
    }
    case OperationKind::kDeleteFiles: return DataOperation::kDelete;
    case OperationKind::kSchemaChange:
    case OperationKind::kExpireSnapshots: return std::nullopt;
  }
  return std::nullopt;
}

Result<TableMetadata> ApplyOperation(const Operation& op, const TableMetadata& base, const ApplyContext& ctx) {
  switch (op.kind) {
    case OperationKind::kSchemaChange: {
      TableMetadata next = NextVersion(base, ctx);
      next.current_schema_id = op.new_schema_id;
      return next;
    }
    case OperationKind::kExpireSnapshots: {
      const std::vector<int64_t> expired = SnapshotsToExpire(base, op.expire);
      TableMetadata next = NextVersion(base, ctx);
      const std::set<int64_t> gone(expired.begin(), expired.end());
      const size_t dropped =
          next.snapshots.erase_if([&](const SnapshotRef& s) { return gone.count(s->snapshot_id) != 0; });
      COMMITLAB_CHECK(dropped == expired.size(), "an expiry drops exactly the retained snapshots it chose");
      return next;
    }
    default: return ApplySnapshot(op, base, ctx);
  }
}

std::shared_ptr<Snapshot> BuildSnapshot(const Snapshot* parent, Snapshot change, const ManifestRef& added_manifest) {
  auto s = std::make_shared<Snapshot>(std::move(change));
  auto next_live = parent != nullptr ? std::make_shared<FileSet>(*parent->live_files) : std::make_shared<FileSet>();
  auto next_deletes = parent != nullptr && parent->live_deletes != nullptr
                          ? std::make_shared<FileSet>(*parent->live_deletes)
                          : std::make_shared<FileSet>();
  // Both callers (ApplySnapshot, the metadata decoder) take what they remove from the parent's sets.
  for (const FileRef& f : s->deleted_files) {
    COMMITLAB_CHECK(parent != nullptr && parent->live_files->find(f->path()) != parent->live_files->end(),
                    "a snapshot deletes only data files live in its parent (failMissingDeletePaths)");
    next_live->erase(f->path());
  }
  for (const FileRef& f : s->removed_delete_files) {
    COMMITLAB_CHECK(parent != nullptr && parent->live_deletes != nullptr &&
                        parent->live_deletes->find(f->path()) != parent->live_deletes->end(),
                    "a snapshot removes only delete files live in its parent");
    next_deletes->erase(f->path());
  }
  for (const FileRef& f : s->added_files) next_live->emplace(f->path(), f, s->sequence_number);
  for (const FileRef& f : s->added_delete_files) next_deletes->emplace(f->path(), f, s->sequence_number);
  COMMITLAB_DCHECK(std::all_of(s->added_files.begin(), s->added_files.end(),
                               [&](const FileRef& f) { return next_live->sequence(f->path()) == s->sequence_number; }),
                   "an added file takes its snapshot's data sequence number (ManifestEntry.dataSequenceNumber)");
  // The parent's manifests that still hold a live file carry over; emptied ones drop out. Each of
  // the parent's held one, so when nothing was removed they all carry over.
  s->manifests = parent != nullptr ? parent->manifests : PersistentVector<ManifestRef>();
  if (!s->deleted_files.empty() || !s->removed_delete_files.empty()) {
    s->manifests.erase_if([&](const ManifestRef& m) {
      return std::none_of(m->files.begin(), m->files.end(), [&](const std::string& path) {
        return next_live->count(path) != 0 || next_deletes->count(path) != 0;
      });
    });
  }
  if (added_manifest != nullptr) s->manifests.push_back(added_manifest);
  s->live_files = std::move(next_live);
  s->live_deletes = std::move(next_deletes);
  return s;
}

std::vector<int64_t> SnapshotsToExpire(const TableMetadata& base, const ExpireOptions& options) {
  std::set<int64_t> keep;
  int kept = 0;
  for (SnapshotRef s = base.CurrentSnapshot(); s != nullptr && kept < std::max(1, options.retain_last);
       s = s->parent_id ? base.FindSnapshot(*s->parent_id) : nullptr, ++kept) {
    keep.insert(s->snapshot_id);
  }
  std::vector<int64_t> out;
  for (const SnapshotRef& s : base.snapshots) {
    if (keep.count(s->snapshot_id) != 0 || s->timestamp_ms >= options.older_than_ms) continue;
    COMMITLAB_CHECK(s->snapshot_id != base.current_snapshot_id, "an expiry never drops the current snapshot");
    out.push_back(s->snapshot_id);
  }
  return out;
}

}  // namespace commitlab::iceberg
