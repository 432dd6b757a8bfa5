// TableView: a writer's view of its table's live files, as a compaction job sees them when it
// plans: read latest, replay the snapshots since the last look. It remembers the order in which
// files were added (by snapshot, then by position in the snapshot), because `compact files=I,J`
// counts a level's files oldest first.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_TABLE_VIEW_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_TABLE_VIEW_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/model.h"
#include "commitlab/core/paimon/store.h"
#include "commitlab/core/paimon/table_state.h"
#include "commitlab/core/status.h"

namespace commitlab::scenarios::internal {

class TableView {
 public:
  // Brings the view up to the latest snapshot; each read is a storage operation of `env`.
  Status Refresh(SnapshotStore* store, Env* env);

  int64_t snapshot_id() const { return state_.snapshot_id(); }
  // The live files of one level of one bucket, oldest first.
  std::vector<DataFile> Files(const std::string& partition, int32_t bucket, int32_t level) const;

 private:
  using FileKey = std::tuple<std::string, int32_t, int32_t, std::string>;  // partition, bucket, level, name

  Status Apply(const Snapshot& s);

  TableState state_;
  std::map<FileKey, int64_t> added_;  // live file -> its place in the order files were added
  int64_t next_ = 0;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_TABLE_VIEW_H_
