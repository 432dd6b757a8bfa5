#include "commitlab/core/paimon/user_claim.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>

namespace commitlab {
namespace {

std::string ErrnoMessage(int err) { return std::error_code(err, std::generic_category()).message(); }

// The pid the holder wrote into the lock file, or "" when it wrote none yet.
std::string HolderPid(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return "";
  std::string pid(buf, static_cast<size_t>(n));
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid;
}

}  // namespace

bool IsValidCommitUser(std::string_view user) {
  if (user.empty() || user.size() > 100 || user.front() == '.') return false;
  for (char c : user) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

Result<UserClaim> UserClaim::Take(const std::string& lock_dir, std::string_view user) {
  if (!IsValidCommitUser(user)) {
    return Status::InvalidArgument(fmt::format(
        "commit user '{}' is not 1..100 of A-Z, a-z, 0-9, '.', '_', '-' (and must not start with '.')", user));
  }
  std::error_code ec;
  std::filesystem::create_directories(lock_dir, ec);
  if (ec) return Status::InvalidArgument(fmt::format("cannot create directory {}: {}", lock_dir, ec.message()));
  std::string path = fmt::format("{}/user-{}.lock", lock_dir, user);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::InvalidArgument(fmt::format("cannot open {}: {}", path, ErrnoMessage(errno)));
  int rc;
  while ((rc = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    const int err = errno;
    const std::string pid = err == EWOULDBLOCK ? HolderPid(fd) : "";
    ::close(fd);
    if (err != EWOULDBLOCK) return Status::InvalidArgument(fmt::format("cannot lock {}: {}", path, ErrnoMessage(err)));
    return Status::InvalidArgument(
        fmt::format("commit user {} is taken by another live process{} ({} is locked): two processes committing as "
                    "one user would each take the other's snapshots for their own",
                    user, pid.empty() ? "" : fmt::format(", pid {}", pid), path));
  }
  // For the message above; the lock, not this content, is the claim.
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    // The claim holds without the pid; only a rival's message gets poorer.
  }
  return UserClaim(fd, std::move(path));
}

UserClaim::UserClaim(UserClaim&& other) noexcept : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

UserClaim& UserClaim::operator=(UserClaim&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

UserClaim::~UserClaim() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace commitlab
