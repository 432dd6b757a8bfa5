// The last K commits of an imported log as a scenario file (scenarios/README.md), so that
// `commitlab explore` answers in which interleavings of those commits one would have conflicted
// or been lost: one writer per committing job (two when one job's commits overlapped), each
// transaction the operation it committed with its partitions and files, a setup writer that
// makes live what they remove, order lines only where one commit needs another's files, and an
// `expect writer W ok` per writer (in the log, every one of them landed). The log's own
// interleaving is in the file as commented order lines.
#ifndef COMMITLAB_SIM_IMPORT_IMPORT_SCENARIO_H_
#define COMMITLAB_SIM_IMPORT_IMPORT_SCENARIO_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "commitlab/sim/import/import.h"

namespace commitlab::sim::import {

struct ScenarioOptions {
  int64_t commits = 1;         // K
  std::string isolation = {};  // the table's level instead of the log's; "" keeps the log's
  std::string command = {};    // what made it, for the file's first comment
  // Each commit a writer of its own ("what if these had run at once"), named by its operation
  // and version (delete-13), instead of one writer per committing job.
  bool writer_per_commit = false;
};

class ScenarioSink final : public ImportSink {
 public:
  explicit ScenarioSink(ScenarioOptions options) : options_(std::move(options)) {}
  Status Begin(const ImportSource& source) override;
  Status Commit(ImportedCommit c) override;
  Status Found(const Finding& f) override;
  Status End(const TableFacts& facts) override;

  // The scenario text. InvalidArgument when there is no commit, when --isolation names a level
  // the format does not have, or when the commits need more steps than a scenario may hold.
  Result<std::string> Text() const;
  // "Delta versions 11..13: 3 commit(s), 2 writer(s)"
  std::string Described() const;

 private:
  ScenarioOptions options_;
  ImportSource source_;
  TableFacts facts_;
  std::deque<ImportedCommit> window_;  // the last K commits
  std::deque<Finding> findings_;       // those about a commit in the window
};

}  // namespace commitlab::sim::import

#endif  // COMMITLAB_SIM_IMPORT_IMPORT_SCENARIO_H_
