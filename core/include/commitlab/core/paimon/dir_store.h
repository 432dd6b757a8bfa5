// DirStore: a table in a local directory, in Paimon's layout.
//
//   <root>/snapshot/snapshot-<id>             snapshot JSON (snapshot_codec.h)
//   <root>/snapshot/LATEST                    advisory hint: the newest id, in decimal
//   <root>/manifest/<name>                    manifest JSON: the changes of one snapshot
//   <root>[/<partition>]/bucket-<b>/<name>    data files (one line of JSON describing the file)
//   <root>/lock/user-<user>.lock              a writer's claim on its commit user (user_claim.h)
//   <root>/lock/writer-<pid>-<n>.live         a live writer of the table (live_writers.h): a store
//                                             opened to write announces itself there
//
// Publish is create-if-absent through renameat2(RENAME_NOREPLACE) or link(2), so it is atomic
// between threads and between processes sharing the directory. The store keeps no table state:
// any number of threads may share one instance, and any number of processes may open one root.
// (Its one cache, of bucket directories already synced under Fsync::kAll, is locked.)
//
// Durability is the `fsync` setting (docs/multiprocess.md measures each):
//   off   nothing is flushed. A process crash (kill -9) loses nothing the kernel accepted; a power
//         loss may lose acknowledged commits and leave empty or torn files behind.
//   data  each file is fsync'ed before it is renamed into place: after a power loss every file a
//         reader finds is complete, but a rename not yet on disk may be gone (a lost commit).
//   all   data, plus an fsync of the directory after each rename (and of the parent after a new
//         directory): an acknowledged commit survives a power loss.
#ifndef COMMITLAB_CORE_DIR_STORE_H_
#define COMMITLAB_CORE_DIR_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/mutex.h"
#include "commitlab/core/paimon/live_writers.h"
#include "commitlab/core/paimon/store.h"

namespace commitlab {

enum class Fsync { kOff, kData, kAll };
std::string_view FsyncName(Fsync f);  // "off", "data", "all"
std::optional<Fsync> ParseFsync(std::string_view s);

// The table's name: the last component of its directory, whether given as "t", "t/" or ".".
std::string DirTableName(const std::string& root);

// How the LATEST hint is written after a publish (docs/multiprocess.md, "The LATEST hint").
enum class LatestHintWrite {
  // Overwritten in place (pwrite, then truncate if it shrank). A reader may catch it torn, which
  // is harmless: a hint is trusted only when snapshot-<hint> exists and snapshot-<hint+1> does not.
  kInPlace,
  // Replaced by rename over the old hint, as Paimon's HintFileUtils.commitHint does through
  // FileIO.overwriteFileUtf8. On ext4 a rename that replaces a file flushes the new file first
  // (auto_da_alloc), which made it ~85% of a commit.
  kRename,
};

struct DirStoreOptions {
  // Publish through renameat2(RENAME_NOREPLACE). When false, publish always takes the link(2)
  // path that filesystems without RENAME_NOREPLACE fall back to (so that path can be taught and
  // tested anywhere).
  bool rename_noreplace = true;
  Fsync fsync = Fsync::kOff;
  LatestHintWrite latest_hint = LatestHintWrite::kInPlace;
  // Called with the path after each fsync of a file or directory (tests count them). May be empty.
  std::function<void(const std::string& path)> on_fsync = {};
};

class DirStore : public SnapshotStore {
 public:
  // Creates root, root/snapshot and root/manifest as needed, and announces a live writer of the
  // table for the store's life (live_writers.h), so that `commitlab check --clean-orphans` keeps the
  // files of its commits in flight. `root` is kept as given (it may be relative) and prefixes every
  // path in messages. InvalidArgument names the path and the OS error when a directory cannot be
  // created, and refuses a directory that holds files but no snapshot/ (someone else's files, not a
  // table); IOError when the writer cannot be announced.
  static Result<std::unique_ptr<DirStore>> Open(std::string root, DirStoreOptions options = {});
  // Opens a table that exists, creating nothing. InvalidArgument when `root` is not a directory
  // or holds no snapshot/ directory.
  static Result<std::unique_ptr<DirStore>> OpenExisting(std::string root, DirStoreOptions options = {});

  // LATEST is only a hint: it is trusted when snapshot-<hint> exists and snapshot-<hint+1> does
  // not. A hint a few ids behind is walked forward; otherwise the snapshot directory is listed.
  // Reads the snapshot's manifest too.
  Result<std::optional<Snapshot>> LatestSnapshot() override;
  // NotFound "Snapshot file <root>/snapshot/snapshot-N does not exist."; Corruption for bad
  // content, a snapshot holding another id, or a missing or corrupt manifest.
  Result<Snapshot> ReadSnapshot(int64_t id) override;
  // ReadSnapshot without the manifest: `changes` is left empty.
  Result<Snapshot> ReadSnapshotFile(int64_t id) const;
  // The changes in manifest `name`; Corruption names `referenced_by` when it does not exist.
  Result<std::vector<FileChange>> ReadManifest(const std::string& name, const std::string& referenced_by) const;
  // Create-if-absent like Publish: an existing manifest is never replaced (InvalidArgument).
  Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) override;
  // kError (InvalidArgument) for id < 1 or when snapshot id-1 does not exist (a gap), as
  // MemoryStore does. kError with NotFound, a known refusal (nothing was published), when the
  // snapshot's manifest or a data file it adds is not on disk: an orphan cleaner run too early or
  // an `rm` took it, and publishing would acknowledge a commit whose data cannot be read.
  PublishResult Publish(const Snapshot& s) override;
  Status WriteDataFile(const DataFile& f) override;
  bool DataFileExists(const DataFile& f) override;
  Status DeleteDataFile(const DataFile& f) override;
  // Sorted file names; temp files (leading '.') are left out.
  std::vector<std::string> ListManifests() override;
  // Sorted, distinct data file names (not paths) from every <partition>/bucket-<b>/ directory.
  std::vector<std::string> ListDataFiles() override;

  // The hint's id, or nullopt when LATEST is absent or not a canonical id.
  std::optional<int64_t> ReadLatestHint() const;
  // The ids of every snapshot-<id> file, ascending. IOError when the directory cannot be listed.
  Result<std::vector<int64_t>> ListSnapshotIds() const;
  // OK when `f`'s file holds what WriteDataFile wrote for it; NotFound or Corruption naming the path.
  Status VerifyDataFile(const DataFile& f) const;

  // The first failure the OS reported to one of the engine's calls above (a full disk, a read-only
  // or unreadable directory), or nullopt. The engine treats such a failure as upstream does (an
  // unknown outcome, a failed commit); a run that met one did not test the protocol, and says so.
  std::optional<std::string> first_io_error() const;

  const std::string& root() const { return root_; }
  const std::string& snapshot_dir() const { return snapshot_dir_; }  // <root>/snapshot
  const std::string& manifest_dir() const { return manifest_dir_; }  // <root>/manifest
  std::string LockDir() const;                                       // <root>/lock
  std::string SnapshotPath(int64_t id) const;                        // <root>/snapshot/snapshot-<id>
  std::string LatestHintPath() const;                                // <root>/snapshot/LATEST
  std::string ManifestPath(std::string_view name) const;             // <root>/manifest/<name>
  std::string DataFilePath(const DataFile& f) const;                 // <root>[/<partition>]/bucket-<b>/<name>

 private:
  DirStore(std::string root, DirStoreOptions options);

  Result<std::optional<Snapshot>> LatestSnapshotImpl();
  Result<Snapshot> ReadSnapshotImpl(int64_t id);
  Status WriteManifestImpl(const std::string& name, const std::vector<FileChange>& changes);
  PublishResult PublishImpl(const Snapshot& s);
  Status WriteDataFileImpl(const DataFile& f);
  Status DeleteDataFileImpl(const DataFile& f);
  // Returns its argument, noting an IOError in it as first_io_error() when it is the first.
  Status Noted(Status st) const;
  PublishResult Noted(PublishResult r) const;
  template <typename T>
  Result<T> Noted(Result<T> r) const {
    if (!r.ok()) (void)Noted(r.status());
    return r;
  }

  // The newest snapshot id (0 for none) by the hint, else by listing.
  Result<int64_t> FindLatestId() const;
  Result<int64_t> ListLatestId() const;
  Status CheckPublishable(const Snapshot& s) const;
  void WriteLatestHint(int64_t id) const;
  // With Fsync::kAll a data file's folder and its parents are synced once per store: Synced says
  // whether that has succeeded for `dir`, MarkSynced records it. Two writers may both sync a new
  // folder; neither goes on before its own sync held.
  bool Synced(const std::string& dir);
  void MarkSynced(const std::string& dir);

  const std::string root_;
  const std::string snapshot_dir_;
  const std::string manifest_dir_;
  const DirStoreOptions options_;
  Mutex synced_mu_;
  std::set<std::string> synced_dirs_ GUARDED_BY(synced_mu_);
  mutable Mutex io_mu_;
  mutable std::optional<std::string> first_io_error_ GUARDED_BY(io_mu_);
  std::optional<LiveWriter> live_;  // set by Open: this store writes
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_DIR_STORE_H_
