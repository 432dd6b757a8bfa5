// CheckTableDir: reads a Paimon-layout table directory (core/paimon/dir_store.h) on its own, with no
// writer's word, and says whether it is sound: everything the run checker (checker.h) verifies
// that files can show, plus what only files can go wrong with.
//
//   unreadable        a snapshot or its manifest is missing its content, truncated or corrupt
//   corrupt_id        a snapshot file's name holds an id past the largest a table can reach
//   gap, duplicate_id, fork, delete_not_live, add_live
//                     the chain's structure and file replay (sim::CheckInvariants); snapshots are
//                     never expired here, so ids must run from 1
//   duplicate_commit  one (user, identifier, kind) in two snapshots
//   missing_file      a live data file is not on disk
//   corrupt_file      a live data file does not hold what its manifest says
//   hint_ahead        the LATEST hint names a snapshot newer than the newest one (a Paimon reader
//                     would trust it and fail)
//
// Leftovers are not problems: temp files of writes that never finished, and manifests and data
// files no snapshot references (orphans), as crashed and losing writers leave them (Paimon's
// OrphanFilesClean, Iceberg's DeleteOrphanFiles). But a live writer's files look just the same
// until its snapshot lands: CleanLeftovers removes only those below a cut-off that FindLiveWriters
// (core/paimon/live_writers.h) gives, taken before the table was read.
#ifndef COMMITLAB_SIM_TABLE_DIR_CHECK_H_
#define COMMITLAB_SIM_TABLE_DIR_CHECK_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/model.h"
#include "commitlab/core/status.h"

namespace commitlab::sim {

struct TableDirProblem {
  std::string kind;     // see the list above
  std::string file;     // the file it is about (for a gap, the first missing snapshot file)
  std::string message;  // why, naming the file

  bool operator==(const TableDirProblem&) const = default;
};

enum class LeftoverKind { kTempFile, kManifest, kDataFile };
std::string_view LeftoverKindName(LeftoverKind k);  // "temp file", "unreferenced manifest", ...

struct Leftover {
  LeftoverKind kind = LeftoverKind::kTempFile;
  std::string path = {};
  int64_t age_micros = 0;    // since its last modification
  int64_t mtime_micros = 0;  // its last modification, since the epoch
};

struct TableDirReport {
  std::string root = {};
  std::vector<Snapshot> chain = {};  // every readable snapshot, in id order
  std::optional<int64_t> latest_hint = {};
  int64_t live_files = 0;  // after replaying the chain
  std::vector<TableDirProblem> problems = {};
  std::vector<Leftover> leftovers = {};  // by path

  bool sound() const { return problems.empty(); }
  int64_t latest_snapshot() const { return chain.empty() ? 0 : chain.back().id; }
  // Snapshots per commit user.
  std::map<std::string, int64_t> per_user() const;
};

struct TableDirCheckOptions {
  // Off for a writer about to join the table: others' in-flight files are not its business.
  bool find_leftovers = true;
};

// InvalidArgument (nothing was judged) when `root` is not a directory, holds no snapshot/
// directory, or cannot be listed. Everything else, including corrupt files, is in the report.
// Safe while writers work on the table: the hint is read before the snapshots are listed, an id
// the listing missed is looked up again (a listing need not show files created while it runs),
// and files are never changed once published.
Result<TableDirReport> CheckTableDir(const std::string& root, TableDirCheckOptions options = {});

struct CleanOptions {
  int64_t older_than_micros = 0;  // keep leftovers younger than this
  // Keep leftovers modified at or after this: a writer live when the cleaner looked may still
  // publish them (LiveWriters::cutoff_micros).
  int64_t in_flight_cutoff_micros = 0;
};

struct CleanResult {
  std::vector<std::string> removed = {};
  int64_t kept_young = 0;                // leftovers younger than older_than_micros
  int64_t kept_in_flight = 0;            // older than that, but not below the in-flight cut-off
  std::vector<std::string> errors = {};  // "PATH: why" for each file that could not be removed
};
// Removes the report's leftovers that are at least `older_than_micros` old and below the in-flight
// cut-off. REQUIRES: report.sound() (on a damaged table an unreadable snapshot's files would look
// unreferenced), and the cut-off taken before the report read the table.
CleanResult CleanLeftovers(const TableDirReport& report, const CleanOptions& options);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_TABLE_DIR_CHECK_H_
