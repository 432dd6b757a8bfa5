// A Delta table's history (run/runner_history.h): a per-writer handle on the table's log that
// notes each call's result into the writer's history, and the table's lookups.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_HISTORY_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_HISTORY_H_

#include <memory>

#include "commitlab/core/delta/log_store.h"
#include "run/runner_history.h"

namespace commitlab::scenarios::internal {

class NotingDeltaLog final : public delta::DeltaLog {
 public:
  NotingDeltaLog(delta::DeltaLog* target, WriterHistory* history) : target_(target), history_(history) {}
  Result<int64_t> LatestVersion() override;
  Result<delta::CommitRef> Read(int64_t version) override;
  delta::WriteResult WriteIfAbsent(int64_t version, const delta::Commit& commit) override;

 private:
  delta::DeltaLog* const target_;
  WriterHistory* const history_;
};

// Who committed a version, and which version last added or removed a file: read straight from
// the log.
std::unique_ptr<TableLookup> MakeDeltaLookup(delta::DeltaLog* log);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_HISTORY_H_
