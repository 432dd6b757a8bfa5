// CheckTableDir: reads a Paimon-layout table directory (core/paimon/dir_store.h) on its own, with no
// writer's word, and says whether it is sound: everything the run checker (checker.h) verifies
// that files can show, plus what only files can go wrong with.
//
//   unreadable        a snapshot or its manifest is missing its content, truncated or corrupt
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
// OrphanFilesClean, Iceberg's DeleteOrphanFiles). CleanLeftovers removes them.
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
  int64_t age_micros = 0;  // since its last modification
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

struct CleanResult {
  std::vector<std::string> removed = {};
  int64_t kept_young = 0;                // leftovers younger than older_than_micros
  std::vector<std::string> errors = {};  // "PATH: why" for each file that could not be removed
};
// Removes the report's leftovers at least `older_than_micros` old. REQUIRES: report.sound(): on a
// damaged table an unreadable snapshot's files would look unreferenced.
CleanResult CleanLeftovers(const TableDirReport& report, int64_t older_than_micros);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_TABLE_DIR_CHECK_H_
