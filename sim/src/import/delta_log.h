// Delta's log for `commitlab import`, as PROTOCOL.md ("Delta Log Entries", "Checkpoints")
// defines it: NNNNNNNNNNNNNNNNNNNN.json commit files of newline-separated actions, numbered from 0
// without gaps, and checkpoints (Parquet, or a V2 checkpoint's JSON manifest with Parquet
// sidecars) that summarise the table at a version.
#ifndef COMMITLAB_SIM_SRC_IMPORT_DELTA_LOG_H_
#define COMMITLAB_SIM_SRC_IMPORT_DELTA_LOG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/sim/import/import.h"

namespace commitlab::sim::import::internal {

// What a _delta_log folder holds, counted in one pass over it (nothing kept per commit).
struct DeltaListing {
  std::string log = {};  // the _delta_log folder
  int64_t first = -1;
  int64_t last = -1;
  int64_t commits = 0;
  std::optional<int64_t> checkpoint = {};  // the latest checkpoint version: in the folder or in _last_checkpoint
  std::string checkpoint_file = {};        // its file, "" when only _last_checkpoint names it
  bool checkpoint_in_folder = false;
  int64_t checkpoint_parts = 0;                // files of the latest checkpoint (multi-part, V2)
  int64_t older_checkpoints = 0;               // checkpoint files of earlier versions
  std::vector<std::string> v2_manifests = {};  // V2 checkpoint manifests (JSON) of the latest checkpoint
  int64_t v2_sidecars = 0;                     // the sidecar files _last_checkpoint names
  int64_t crc = 0;                             // N.crc table-state checksums
  int64_t compacted = 0;                       // N.M.compacted.json log compactions
  std::vector<std::string> other = {};         // anything else, the first few names
  int64_t other_count = 0;
};

// Lists PATH (a table folder with _delta_log/, or that folder). InvalidArgument when there is no
// commit file, when a version between the first and the last is missing ("LOG/N.json: missing"),
// or _last_checkpoint is not JSON.
Result<DeltaListing> ListDeltaLog(const std::string& path);

// "00000000000000000007.json"
std::string DeltaCommitFileName(int64_t version);

// The table as the commits so far leave it: what later commits are read against.
struct DeltaTable {
  std::vector<std::string> partition_columns = {};
  std::string isolation = "Serializable";  // delta.isolationLevel; Serializable when unset (DeltaConfigs)
  std::map<std::string, std::string> configuration = {};
  std::string schema = {};
  bool has_metadata = false;
  int reader_version = 0;
  int writer_version = 0;
};

// Reads LOG/N.json into `out`. InvalidArgument "FILE:LINE: why" for a line that is not JSON, not
// one action, an action of another shape than PROTOCOL.md gives, an unknown action, or a protocol
// version newer than Delta defines.
Status ReadDeltaCommit(const std::string& log, int64_t version, DeltaTable* table, ImportedCommit* out);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_DELTA_LOG_H_
