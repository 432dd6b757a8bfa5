#include "commitlab/core/delta/log_store.h"

#include <fmt/format.h>

namespace commitlab::delta {

Result<int64_t> MemoryDeltaLog::LatestVersion() {
  MutexLock lock(&mu_);
  return static_cast<int64_t>(commits_.size()) - 1;
}

Result<CommitRef> MemoryDeltaLog::Read(int64_t version) {
  MutexLock lock(&mu_);
  if (version < 0 || version >= static_cast<int64_t>(commits_.size()))
    return Status::NotFound(fmt::format("_delta_log/{} does not exist", DeltaFileName(version)));
  return commits_[static_cast<size_t>(version)];
}

WriteResult MemoryDeltaLog::WriteIfAbsent(int64_t version, const Commit& commit) {
  MutexLock lock(&mu_);
  const auto next = static_cast<int64_t>(commits_.size());
  if (version >= 0 && version < next) return {WriteOutcome::kAlreadyExists, Status::OK()};
  if (version != next)
    return {WriteOutcome::kError,
            Status::InvalidArgument(
                fmt::format("_delta_log/{} would leave a gap after version {}", DeltaFileName(version), next - 1))};
  commits_.push_back(std::make_shared<const Commit>(commit));
  return {WriteOutcome::kWritten, Status::OK()};
}

}  // namespace commitlab::delta
