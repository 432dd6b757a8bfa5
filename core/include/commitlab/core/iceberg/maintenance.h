// Table maintenance: orphan-file removal (DeleteOrphanFiles) and snapshot expiry
// (ExpireSnapshots / RemoveSnapshots). Both delete only what no retained snapshot and no kept
// metadata file reaches, so a live file is never removed.
#ifndef COMMITLAB_CORE_ICEBERG_MAINTENANCE_H_
#define COMMITLAB_CORE_ICEBERG_MAINTENANCE_H_

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

// Every path `m` reaches: its metadata file and those in its log, and for each retained snapshot
// its manifest list, its manifests and its live data files.
std::set<std::string> ReachableFiles(const TableMetadata& m);

// The files of `files` that `m` does not reach and that were written before
// `older_than_micros`, in path order. Upstream's default cut-off is three days ago, so that files
// of commits still in flight survive; with a later cut-off a running writer's files can go.
std::vector<std::string> FindOrphanFiles(const TableMetadata& m, const std::vector<StoredFile>& files,
                                         int64_t older_than_micros = std::numeric_limits<int64_t>::max());

// Reads the current metadata and deletes its orphan files (each delete a storage call); returns
// the removed paths in path order.
Result<std::vector<std::string>> RemoveOrphanFiles(IcebergCatalog* catalog, FileIO* io, Env* env,
                                                   int64_t older_than_micros = std::numeric_limits<int64_t>::max());

struct ExpireResult {
  std::vector<int64_t> expired_snapshot_ids = {};  // oldest first
  std::vector<std::string> deleted_files = {};     // in path order
};

// Commits the removal of old snapshots through `committer` (the same CAS loop and retry policy),
// then deletes the files only the expired snapshots reached: data files, manifests, manifest
// lists. Nothing old enough: no commit. A reader still scanning an expired snapshot then hits
// FileNotFoundException.
Result<ExpireResult> ExpireSnapshots(IcebergCommitter* committer, const ExpireOptions& options);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_MAINTENANCE_H_
