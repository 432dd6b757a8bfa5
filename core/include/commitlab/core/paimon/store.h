// SnapshotStore: where snapshots, manifests and data files live. The one atomic primitive is
// Publish(snapshot N): create-if-absent. Everything else is written before it and is invisible
// garbage if the publish never lands.
#ifndef COMMITLAB_CORE_STORE_H_
#define COMMITLAB_CORE_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/model.h"
#include "commitlab/core/status.h"

namespace commitlab {

enum class PublishOutcome {
  kPublished,      // snapshot N is ours
  kAlreadyExists,  // someone else took N: lost the race, nothing written
  kError,          // the call failed; whether N took effect is unknown to the caller, unless its
                   // status is NotFound: then the store refused and nothing took effect
};

// A published snapshot, shared and immutable: a store in memory hands out the one it holds
// instead of a copy.
using SnapshotRef = std::shared_ptr<const Snapshot>;

struct PublishResult {
  PublishOutcome outcome = PublishOutcome::kError;
  Status error;  // set when outcome == kError
};

class SnapshotStore {
 public:
  virtual ~SnapshotStore() = default;

  // The latest published snapshot with its changes, or nullopt for an empty table.
  virtual Result<std::optional<Snapshot>> LatestSnapshot() = 0;
  // The same as a shared reference, null for an empty table. A committer reads the latest snapshot
  // once per attempt, and copying it was most of a simulated sweep's cost; a store in memory
  // answers with the snapshot it holds. The default wraps LatestSnapshot.
  virtual Result<SnapshotRef> LatestSnapshotRef() {
    COMMITLAB_ASSIGN_OR_RETURN(std::optional<Snapshot> r, LatestSnapshot());
    if (!r.has_value()) return SnapshotRef();
    return SnapshotRef(std::make_shared<const Snapshot>(std::move(*r)));
  }
  virtual Result<Snapshot> ReadSnapshot(int64_t id) = 0;
  // Writes a manifest holding `changes` under `name` (chosen by the caller, unique).
  virtual Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) = 0;
  // Atomically creates snapshot `s.id`. `s.delta_manifest` names a manifest already written.
  virtual PublishResult Publish(const Snapshot& s) = 0;
  // Data files are written by writers before they commit; a store may keep them as real files.
  virtual Status WriteDataFile(const DataFile& f) = 0;
  virtual bool DataFileExists(const DataFile& f) = 0;
  // Removes a data file behind the table's back (an operator's rm, an orphan-file cleanup run too
  // early): the snapshots still name it. NotFound when it is not there.
  virtual Status DeleteDataFile(const DataFile& f) = 0;
  // Every manifest and data file name the store holds (for the orphan-file tally).
  virtual std::vector<std::string> ListManifests() = 0;
  virtual std::vector<std::string> ListDataFiles() = 0;
};

// Reads snapshots 1..latest back from the store, in id order, as a checker does after a run.
Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_STORE_H_
