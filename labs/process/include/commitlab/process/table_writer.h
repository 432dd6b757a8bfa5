// TableWriter: the work of one `commitlab writer` process. It joins the table in a directory
// (creating it if absent; any number of processes may start at once), claims its commit user
// (core/paimon/user_claim.h), refuses a damaged table, and commits as that user with identifiers continuing
// after the user's newest committed one, as Paimon's Committer.filterCommitted does after a
// restart. Each commit appends one new data file. Acknowledgements are handed out only after the
// publish returned, so an acknowledged commit is one the table holds.
#ifndef COMMITLAB_PROCESS_TABLE_WRITER_H_
#define COMMITLAB_PROCESS_TABLE_WRITER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/commit_stats.h"
#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"
#include "commitlab/sim/checker.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/latency.h"

namespace commitlab::process {

struct TableWriterOptions {
  std::string dir = {};
  std::string user = {};
  // Exactly one is set: commit this many more times, or until this identifier is committed.
  std::optional<int64_t> commits = {};
  std::optional<int64_t> until = {};
  RetryPolicy retry = PaimonDefaultPolicy();
  bool idempotency_check = true;
  Fsync fsync = Fsync::kOff;
  // Drive the latency model and the faults' p= draws. File names do not come from it: they are
  // unique per process whatever the seed (Paimon names files by random UUIDs).
  uint64_t seed = 1;
  sim::LatencyModel latency = {};
  std::vector<sim::FaultRule> faults = {};
};

struct Ack {
  std::string user = {};
  int64_t identifier = 0;
  int64_t snapshot = 0;
};

struct TableWriterResult {
  std::string user = {};
  int64_t resumed_after = 0;    // the user's newest committed identifier when the writer joined
  int64_t acknowledged = 0;     // commits acknowledged by this process
  int64_t last_identifier = 0;  // the newest identifier acknowledged (resumed_after if none)
  CommitStats stats = {};
  std::vector<sim::CommitRecord> records = {};  // what this process was told of each commit
  std::vector<std::string> fired_faults = {};
  // Empty when every commit was acknowledged; else why the writer stopped (a commit gave up,
  // met a conflict, failed or crashed), and the code of that failure.
  std::string error = {};
  Code error_code = Code::kOk;
};

// InvalidArgument (nothing was committed) for bad options, a user another live process holds,
// or a table that is damaged or cannot be read; the message names the file. `on_ack` is called
// once per acknowledged commit, right after its publish returned.
Result<TableWriterResult> RunTableWriter(const TableWriterOptions& options,
                                         const std::function<void(const Ack&)>& on_ack);

}  // namespace commitlab::process

#endif  // COMMITLAB_PROCESS_TABLE_WRITER_H_
