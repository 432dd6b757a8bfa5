// DeltaLog: the storage under _delta_log/. Its one atomic primitive is writing version N
// put-if-absent, the contract of Delta's LogStore.write(path, actions, overwrite = false): exactly
// one writer creates N.json; everyone else gets FileAlreadyExistsException.
#ifndef COMMITLAB_CORE_DELTA_LOG_STORE_H_
#define COMMITLAB_CORE_DELTA_LOG_STORE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "commitlab/core/delta/actions.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/status.h"

namespace commitlab::delta {

enum class WriteOutcome {
  kWritten,        // N.json is ours
  kAlreadyExists,  // FileAlreadyExistsException: another writer took N, nothing written
  kError,          // the call failed; whether N.json took effect is unknown to the caller
};

// A version as written: immutable, so readers share it instead of copying its actions.
using CommitRef = std::shared_ptr<const Commit>;

struct WriteResult {
  WriteOutcome outcome = WriteOutcome::kError;
  Status error;  // set when outcome == kError
};

class DeltaLog {
 public:
  virtual ~DeltaLog() = default;

  // The newest version, or -1 when the log holds no commit yet (Delta's version of a table that
  // does not exist).
  virtual Result<int64_t> LatestVersion() = 0;
  // The version as written, never null when ok(); NotFound when version N was never written.
  virtual Result<CommitRef> Read(int64_t version) = 0;
  // Creates N.json if absent. kError (InvalidArgument) for version < 0 or when N-1 is missing:
  // a log has no gaps.
  virtual WriteResult WriteIfAbsent(int64_t version, const Commit& commit) = 0;
};

// The log in process memory; every call holds one mutex, so any number of threads may share it.
class MemoryDeltaLog final : public DeltaLog {
 public:
  Result<int64_t> LatestVersion() override;
  Result<CommitRef> Read(int64_t version) override;
  WriteResult WriteIfAbsent(int64_t version, const Commit& commit) override;

 private:
  Mutex mu_;
  std::vector<CommitRef> commits_ GUARDED_BY(mu_);  // commits_[v] is version v
};

}  // namespace commitlab::delta

#endif  // COMMITLAB_CORE_DELTA_LOG_STORE_H_
