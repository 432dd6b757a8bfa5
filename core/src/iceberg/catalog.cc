#include "commitlab/core/iceberg/catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string_view>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/model.h"

namespace commitlab::iceberg {

std::string_view CasOutcomeName(CasOutcome outcome) {
  switch (outcome) {
    case CasOutcome::kSwapped: return "swapped";
    case CasOutcome::kLost: return "lost";
    case CasOutcome::kUnknown: return "unknown";
  }
  return "?";
}

InMemoryCatalog::InMemoryCatalog(std::string table_name, int32_t schema_id)
    : table_name_(std::move(table_name)),
      current_(std::make_shared<const TableMetadata>(NewTableMetadata(table_name_, schema_id))) {}

Result<MetadataRef> InMemoryCatalog::Current() {
  MutexLock l(&mu_);
  return current_;
}

CasResult InMemoryCatalog::CompareAndSwap(int64_t expected_version, MetadataRef new_metadata) {
  if (new_metadata == nullptr || new_metadata->version != expected_version + 1) {
    return {CasOutcome::kUnknown,
            fmt::format("Invalid metadata for version {} of table {}", expected_version + 1, table_name_)};
  }
  MutexLock l(&mu_);
  if (current_->version != expected_version) {
    // The new metadata logs the file it was built from: the location the writer read. Joined with
    // Concat, not fmt: every lost swap of a sweep's writers builds one.
    const std::string_view old_location = new_metadata->metadata_log.empty()
                                              ? std::string_view("null")
                                              : std::string_view(new_metadata->metadata_log.back());
    return {CasOutcome::kLost,
            Concat({"Cannot commit to table ", table_name_, " metadata location from ", old_location, " to ",
                    new_metadata->location, " because it has been concurrently modified to ", current_->location})};
  }
  current_ = std::move(new_metadata);
  return {CasOutcome::kSwapped, ""};
}

CasResult InMemoryRestCatalog::Commit(const TableMetadata& base, MetadataRef next) {
  if (next == nullptr) return {CasOutcome::kUnknown, fmt::format("Invalid metadata for table {}", table_name_)};
  MutexLock l(&mu_);
  const TableMetadata& now = *current_;
  const bool moves_main = next->current_snapshot_id != base.current_snapshot_id;
  const bool sets_schema = next->current_schema_id != base.current_schema_id;
  if (moves_main && now.current_snapshot_id != base.current_snapshot_id) {
    // UpdateRequirement.AssertRefSnapshotID.validate
    if (!base.current_snapshot_id)
      return {CasOutcome::kLost, "Requirement failed: branch main was created concurrently"};
    return {CasOutcome::kLost,
            fmt::format("Requirement failed: branch main has changed: expected id {} != {}",
                        FormatSnapshotId(base.current_snapshot_id), FormatSnapshotId(now.current_snapshot_id))};
  }
  if (sets_schema && now.current_schema_id != base.current_schema_id) {
    return {CasOutcome::kLost, fmt::format("Requirement failed: current schema changed: expected id {} != {}",
                                           base.current_schema_id, now.current_schema_id)};
  }
  if (now.version == base.version) {
    current_ = std::move(next);
    return {CasOutcome::kSwapped, ""};
  }
  // CatalogHandlers.commit: the updates applied to the current metadata, a new version of it.
  auto merged = std::make_shared<TableMetadata>(now);
  merged->version = now.version + 1;
  merged->location = next->location;  // the file the client wrote stands for the server's
  merged->last_updated_ms = next->last_updated_ms;
  merged->metadata_log.Append(now.location, now.last_updated_ms);
  if (moves_main) {
    // TableMetadata.Builder.addSnapshot refuses a sequence number that is not the newest.
    if (next->last_sequence_number <= now.last_sequence_number) {
      return {CasOutcome::kLost, fmt::format("Cannot add snapshot with sequence number {} older than last sequence "
                                             "number {}",
                                             next->last_sequence_number, now.last_sequence_number)};
    }
    for (const SnapshotRef& s : next->snapshots)
      if (base.FindSnapshot(s->snapshot_id) == nullptr) merged->snapshots.push_back(s);  // AddSnapshot
    merged->current_snapshot_id = next->current_snapshot_id;                             // SetSnapshotRef(main)
    merged->last_sequence_number = next->last_sequence_number;
  }
  COMMITLAB_CHECK(!merged->current_snapshot_id || merged->CurrentSnapshot() != nullptr,
                  "main names a snapshot the merged table retains (AddSnapshot before SetSnapshotRef)");
  if (sets_schema) merged->current_schema_id = next->current_schema_id;  // SetCurrentSchema
  std::set<int64_t> kept;  // RemoveSnapshots: what base had and next dropped
  for (const SnapshotRef& s : next->snapshots) kept.insert(s->snapshot_id);
  std::set<int64_t> removed;
  for (const SnapshotRef& s : base.snapshots)
    if (kept.count(s->snapshot_id) == 0) removed.insert(s->snapshot_id);
  if (!removed.empty())
    merged->snapshots.erase_if([&](const SnapshotRef& m) { return removed.count(m->snapshot_id) != 0; });
  current_ = merged;
  return {CasOutcome::kSwapped, "", std::move(merged)};
}

}  // namespace commitlab::iceberg
