// UserClaim: a writer process's exclusive hold on one commit user of a table directory.
//
// Paimon tells commits apart by (commit user, identifier): its idempotency check after a failed
// publish, and filterCommitted after a restart, take any snapshot of "our" user as our own. Two
// live processes committing as one user would each claim the other's snapshots and acknowledge
// commits that are not in the table. The claim is an flock(2) on <root>/lock/user-<user>.lock:
// the kernel drops it when the process dies however it dies (kill -9 too), so a restart takes it
// again, and a second live process cannot take it at all.
#ifndef COMMITLAB_CORE_USER_CLAIM_H_
#define COMMITLAB_CORE_USER_CLAIM_H_

#include <string>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab {

// A commit user a lock file can be named after: 1..100 of [A-Za-z0-9._-], not starting with '.'.
bool IsValidCommitUser(std::string_view user);

class UserClaim {
 public:
  // Creates <lock_dir> if needed and takes the claim. InvalidArgument when another live process
  // holds it (naming that process's pid when it wrote one) or the lock file cannot be opened.
  static Result<UserClaim> Take(const std::string& lock_dir, std::string_view user);

  UserClaim(UserClaim&& other) noexcept;
  UserClaim& operator=(UserClaim&& other) noexcept;
  UserClaim(const UserClaim&) = delete;
  UserClaim& operator=(const UserClaim&) = delete;
  ~UserClaim();  // releases the claim

  const std::string& path() const { return path_; }

 private:
  UserClaim(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  int fd_ = -1;
  std::string path_;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_USER_CLAIM_H_
