// PinnedReader: a scan pinned to one snapshot (snapshot isolation for readers). Planning happens
// at Open, from the snapshot's manifests, as Spark plans a scan before its tasks run; the data
// files are read later, one storage call each, while writers go on committing. Whatever they
// commit, the reader sees exactly its snapshot's files, unless expiry has deleted them by then.
#ifndef COMMITLAB_CORE_ICEBERG_READER_H_
#define COMMITLAB_CORE_ICEBERG_READER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

class PinnedReader {
 public:
  // Reads the pointer and plans a scan of the current snapshot, or of `snapshot_id` (time
  // travel: NotFound "Cannot find snapshot with ID <id>" when it is not retained).
  static Result<PinnedReader> Open(IcebergCatalog* catalog, FileIO* io, Env* env,
                                   std::optional<int64_t> snapshot_id = std::nullopt);

  // nullopt for a table without snapshots.
  const std::optional<int64_t>& snapshot_id() const { return snapshot_id_; }
  // The metadata read at Open: build an operation from it to validate from the pinned snapshot.
  const MetadataRef& metadata() const { return metadata_; }
  int64_t metadata_version() const { return metadata_->version; }
  // The planned files, in path order (a path added twice appears twice).
  const std::vector<FileRef>& files() const { return files_; }

  // The snapshot read (null for a table without snapshots).
  const SnapshotRef& snapshot() const { return snapshot_; }
  // Reads the rows of files()[index] from FileIO, less the rows the snapshot's delete files
  // remove (deletes.h). A file deleted since planning is NotFound
  // "FileNotFoundException: File does not exist: <path> (snapshot <id> was expired ...)"; the
  // reader re-reads the pointer to say whether its snapshot was expired.
  Result<std::vector<Row>> ReadFile(size_t index);
  // Every row of the snapshot, file by file; stops at the first missing file.
  Result<std::vector<Row>> ReadAll();

 private:
  PinnedReader(IcebergCatalog* catalog, FileIO* io, Env* env) : catalog_(catalog), io_(io), env_(env) {}
  Status FileNotFound(const std::string& path);

  IcebergCatalog* catalog_;
  FileIO* io_;
  Env* env_;
  std::optional<int64_t> snapshot_id_;
  MetadataRef metadata_;
  std::vector<FileRef> files_;
  SnapshotRef snapshot_;
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_READER_H_
