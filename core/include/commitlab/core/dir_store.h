// DirStore: a table in a local directory, in Paimon's layout.
//
//   <root>/snapshot/snapshot-<id>             snapshot JSON (snapshot_codec.h)
//   <root>/snapshot/LATEST                    advisory hint: the newest id, in decimal
//   <root>/manifest/<name>                    manifest JSON: the changes of one snapshot
//   <root>[/<partition>]/bucket-<b>/<name>    data files (one line of JSON describing the file)
//
// Publish is create-if-absent through renameat2(RENAME_NOREPLACE) or link(2), so it is atomic
// between threads and between processes sharing the directory. The store keeps no mutable state:
// any number of threads may share one instance, and any number of processes may open one root.
#ifndef COMMITLAB_CORE_DIR_STORE_H_
#define COMMITLAB_CORE_DIR_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/store.h"

namespace commitlab {

struct DirStoreOptions {
  // Publish through renameat2(RENAME_NOREPLACE). When false, publish always takes the link(2)
  // path that filesystems without RENAME_NOREPLACE fall back to (so that path can be taught and
  // tested anywhere).
  bool rename_noreplace = true;
};

class DirStore : public SnapshotStore {
 public:
  // Creates root, root/snapshot and root/manifest as needed. `root` is kept as given (it may be
  // relative) and prefixes every path in messages. InvalidArgument names the path and the OS error
  // when a directory cannot be created.
  static Result<std::unique_ptr<DirStore>> Open(std::string root, DirStoreOptions options = {});

  // LATEST is only a hint: it is trusted when snapshot-<hint> exists and snapshot-<hint+1> does
  // not; otherwise the snapshot directory is listed. Reads the snapshot's manifest too.
  Result<std::optional<Snapshot>> LatestSnapshot() override;
  // NotFound "Snapshot file <root>/snapshot/snapshot-N does not exist."; Corruption for bad
  // content, a snapshot holding another id, or a missing or corrupt manifest.
  Result<Snapshot> ReadSnapshot(int64_t id) override;
  // Create-if-absent like Publish: an existing manifest is never replaced (InvalidArgument).
  Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) override;
  // kError (InvalidArgument) for id < 1 or when snapshot id-1 does not exist (a gap), as
  // MemoryStore does.
  PublishResult Publish(const Snapshot& s) override;
  Status WriteDataFile(const DataFile& f) override;
  bool DataFileExists(const DataFile& f) override;
  // Sorted file names; temp files (leading '.') are left out.
  std::vector<std::string> ListManifests() override;
  // Sorted, distinct data file names (not paths) from every <partition>/bucket-<b>/ directory.
  std::vector<std::string> ListDataFiles() override;

  const std::string& root() const { return root_; }
  std::string SnapshotPath(int64_t id) const;         // <root>/snapshot/snapshot-<id>
  std::string LatestHintPath() const;                 // <root>/snapshot/LATEST
  std::string ManifestPath(std::string_view name) const;  // <root>/manifest/<name>
  std::string DataFilePath(const DataFile& f) const;  // <root>[/<partition>]/bucket-<b>/<name>

 private:
  DirStore(std::string root, DirStoreOptions options);

  std::optional<int64_t> ReadLatestHint() const;
  // The newest snapshot id (0 for none) by the hint, else by listing.
  Result<int64_t> FindLatestId() const;
  Result<int64_t> ListLatestId() const;
  Result<std::vector<FileChange>> ReadManifest(const std::string& name, const std::string& snapshot_path) const;
  Status CheckPublishable(const Snapshot& s) const;
  void WriteLatestHint(int64_t id) const;

  const std::string root_;
  const std::string snapshot_dir_;
  const std::string manifest_dir_;
  const DirStoreOptions options_;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_DIR_STORE_H_
