// The three log readers behind ImportLog (import.h). Each lists what PATH holds, says what it reads
// and what it does not (Begin), and hands the checker one commit at a time.
#ifndef COMMITLAB_SIM_SRC_IMPORT_READERS_H_
#define COMMITLAB_SIM_SRC_IMPORT_READERS_H_

#include <cstdint>
#include <string>

#include "checker.h"

namespace commitlab::sim::import::internal {

// Delta: PATH is a table folder holding _delta_log/, or the _delta_log folder itself.
Status ReadDeltaLog(const std::string& path, Checker* sink);
// Iceberg: PATH is one metadata file, a table folder holding metadata/, or the metadata folder.
// `memory_entries`: ImportOptions::memory_entries (0: the reader's own).
Status ReadIcebergMetadata(const std::string& path, int64_t memory_entries, Checker* sink);
// Paimon: PATH is a table folder holding snapshot/, or the snapshot folder itself.
Status ReadPaimonSnapshots(const std::string& path, Checker* sink);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_READERS_H_
