// The checks every format's commits go through on their way to the sink (docs/import.md,
// "Findings"): a clock that goes backwards, a Delta commit made after concurrent ones, a
// streaming app id whose version repeats or goes back, a Paimon user and identifier committed
// twice, a remove of a file never added. State is per live file, app id and commit user, and a
// window of recent commits: it does not grow with the number of commits.
#ifndef COMMITLAB_SIM_SRC_IMPORT_CHECKER_H_
#define COMMITLAB_SIM_SRC_IMPORT_CHECKER_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "commitlab/sim/import/import.h"

namespace commitlab::sim::import::internal {

class Checker final : public ImportSink {
 public:
  explicit Checker(ImportSink* out) : out_(out) {}

  Status Begin(const ImportSource& source) override;
  Status Commit(ImportedCommit c) override;
  Status Found(const Finding& f) override { return out_->Found(f); }
  Status End(const TableFacts& facts) override;

  // The first version read is the table's first: every file a remove names was added in what was
  // read (Delta: version 0 is in the log). Otherwise a remove of an unknown file is not a finding
  // of its own; End says how many there were.
  void set_complete(bool complete) { complete_ = complete; }

 private:
  struct Recent {
    int64_t version = 0;
    std::string operation = {};
    std::string writer = {};
    bool blind_append = false;
  };

  Status Clock(ImportedCommit& c, std::vector<Finding>* found);
  void Concurrent(const ImportedCommit& c, std::vector<Finding>* found) const;
  void AppVersions(const ImportedCommit& c, std::vector<Finding>* found);
  void Identifiers(const ImportedCommit& c, std::vector<Finding>* found);
  void Files(ImportedCommit& c, std::vector<Finding>* found);
  uint32_t PartitionId(const std::string& partition);

  ImportSink* const out_;
  Format format_ = Format::kDelta;
  bool complete_ = false;
  bool any_ = false;
  int64_t last_time_ms_ = 0;
  int64_t last_version_ = 0;
  std::deque<Recent> recent_;  // the last kRecent commits, oldest first
  struct AppSeen {
    int64_t version = 0;
    int64_t at = 0;  // the commit that recorded it
  };
  std::map<std::string, AppSeen> apps_;  // Delta txn appId -> its last version
  struct UserSeen {
    int64_t identifier = 0;
    int64_t at = 0;
  };
  std::map<std::pair<std::string, std::string>, UserSeen> users_;  // Paimon (user, kind) -> last identifier
  // Live files by a 64-bit hash of their path, with the index of their partition.
  std::unordered_map<uint64_t, uint32_t> live_;
  std::vector<std::string> partitions_;
  std::unordered_map<std::string, uint32_t> partition_ids_;
  int64_t unknown_removes_ = 0;  // removes of files added before the first version read
  int64_t first_unknown_at_ = -1;
  std::string first_unknown_writer_;
};

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_CHECKER_H_
