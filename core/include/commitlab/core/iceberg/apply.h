// Apply: the next metadata an operation makes of the metadata a commit attempt refreshed, after
// SnapshotProducer.apply (new snapshot on the branch head, sequence number last + 1, a new
// manifest list) and TableMetadata.buildFrom(base) (version + 1, metadata log). Pure: the
// committer writes the files this names and runs Validate before.
#ifndef COMMITLAB_CORE_ICEBERG_APPLY_H_
#define COMMITLAB_CORE_ICEBERG_APPLY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

// What an attempt brings besides the operation.
struct ApplyContext {
  int64_t snapshot_id = 0;             // assigned once per commit
  ManifestRef added_manifest = {};     // the files the operation adds; null when it adds none
  std::string manifest_list = {};      // this attempt's manifest list
  std::string metadata_location = {};  // this attempt's metadata file
  std::string committed_by = {};
  int64_t timestamp_ms = 0;
};

// The snapshot operation `op` commits (BaseOverwriteFiles.operation(): deletes only -> delete,
// adds only -> append); nullopt for operations that commit no snapshot.
std::optional<DataOperation> SnapshotOperation(const Operation& op);

// The metadata `op` makes of `base`. Fails as upstream's apply does: a file to delete that is
// not live, or an overwrite-by-filter that would delete part of a file (ValidationException).
Result<TableMetadata> ApplyOperation(const Operation& op, const TableMetadata& base, const ApplyContext& ctx);

// The snapshot a change makes on `parent` (null: the table's first snapshot). `change` holds the
// header (id, parent id, sequence number, ...) and the added and removed data and delete files;
// this fills in what follows from the parent as SnapshotProducer does: the live data and delete
// files, every live file's data sequence number (an added file takes the snapshot's), and the
// manifests, the parent's that still hold a live file and then `added_manifest`. The summary is
// left to the caller. Shared by ApplyOperation and the metadata decoder, so a snapshot read back
// from a file is the one that was written.
std::shared_ptr<Snapshot> BuildSnapshot(const Snapshot* parent, Snapshot change, const ManifestRef& added_manifest);

// RemoveSnapshots: the snapshots of `base` an expiry drops, oldest first. Kept: the current
// snapshot and its newest `retain_last` ancestors (itself included), and any snapshot not older
// than older_than_ms.
std::vector<int64_t> SnapshotsToExpire(const TableMetadata& base, const ExpireOptions& options);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_APPLY_H_
