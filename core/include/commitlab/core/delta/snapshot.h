// TableSnapshot: the table state at one log version, rebuilt by replaying N.json files in order
// (Delta would start from a checkpoint; this log has none, so a caller that keeps its snapshot
// between transactions replays only the new versions).
#ifndef COMMITLAB_CORE_DELTA_SNAPSHOT_H_
#define COMMITLAB_CORE_DELTA_SNAPSHOT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "commitlab/core/delta/actions.h"
#include "commitlab/core/delta/log_store.h"
#include "commitlab/core/env.h"
#include "commitlab/core/status.h"

namespace commitlab::delta {

class TableSnapshot {
 public:
  int64_t version() const { return version_; }  // -1: before the first commit
  // Live files by name, the result of every add and remove so far.
  const std::map<std::string, DataFile>& files() const { return files_; }
  const std::optional<Metadata>& metadata() const { return metadata_; }
  const Protocol& protocol() const { return protocol_; }
  bool partitioned() const { return metadata_ && !metadata_->partition_columns.empty(); }
  // The last version an application committed, or -1 (Snapshot.transactions(appId)).
  int64_t TxnVersion(std::string_view app_id) const;

  // Applies version `version`, which must be version() + 1.
  Status Apply(int64_t version, const Commit& c);

 private:
  int64_t version_ = -1;
  std::map<std::string, DataFile> files_;
  std::optional<Metadata> metadata_;
  Protocol protocol_;
  std::map<std::string, int64_t, std::less<>> app_versions_;
};

// Replays versions (snapshot.version(), version] into `snapshot`, each read between
// BeginStorageOp/EndStorageOp(kReadSnapshot).
Status AdvanceSnapshot(TableSnapshot& snapshot, DeltaLog& log, Env& env, int64_t version);

}  // namespace commitlab::delta

#endif  // COMMITLAB_CORE_DELTA_SNAPSHOT_H_
