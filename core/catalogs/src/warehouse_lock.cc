#include "commitlab/catalogs/warehouse_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <string_view>

#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"

namespace commitlab::catalogs {

Result<std::unique_ptr<WarehouseLock>> WarehouseLock::Take(const std::string& warehouse) {
  const std::string path = warehouse + "/.catalog.lock";
  // O_NOFOLLOW: a link planted here must not make the server truncate another file.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return IoError("open the lock file", path, errno);
  int rc;
  while ((rc = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    const int err = errno;
    char buf[32] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    ::close(fd);
    if (err != EWOULDBLOCK) return IoError("lock", path, err);
    std::string_view holder(buf, n > 0 ? static_cast<size_t>(n) : 0);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.remove_suffix(1);
    return Status::InvalidArgument(fmt::format(
        "--warehouse {} is served by another catalog server (pid {}): two servers on one warehouse would each "
        "overwrite the other's commits; stop it or use another folder",
        warehouse, holder.empty() ? "unknown" : std::string(holder)));
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd, 0) != 0 || !WriteAll(fd, pid, path).ok()) {
    const int err = errno;
    ::close(fd);
    return IoError("write", path, err);
  }
  return std::unique_ptr<WarehouseLock>(new WarehouseLock(fd));
}

WarehouseLock::~WarehouseLock() { ::close(fd_); }

}  // namespace commitlab::catalogs
