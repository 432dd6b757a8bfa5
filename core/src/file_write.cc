#include "commitlab/core/file_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <filesystem>

#include "commitlab/core/check.h"
#include "commitlab/core/file_read.h"

namespace commitlab {
namespace {

// Unique across threads (the counter) and processes (the pid); O_EXCL catches a stale file left by
// a dead process whose pid was reused.
std::string TempPath(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  const std::filesystem::path p(path);
  return (p.parent_path() / fmt::format(".{}.{}-{}.tmp", p.filename().string(), ::getpid(), counter.fetch_add(1)))
      .string();
}

// fsync(2) through EINTR: 0 or the errno.
int FsyncFd(int fd) {
  while (::fsync(fd) != 0) {
    if (errno != EINTR) return errno;
  }
  return 0;
}

}  // namespace

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("write", path, errno);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

Result<std::string> WriteTempBeside(const std::string& path, std::string_view content, bool sync,
                                    const std::function<void(const std::string&)>& on_fsync) {
  std::string tmp;
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 100; ++tries) {
    tmp = TempPath(path);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);  // less the umask
    if (fd < 0 && errno != EEXIST) return IoError("write", path, errno);
  }
  if (fd < 0) return IoError("write", path, EEXIST);
  Status written = WriteAll(fd, content, path);
  if (written.ok() && sync) {
    // A full disk or a quota may show only here or at close.
    if (const int err = FsyncFd(fd); err != 0) written = IoError("write", path, err);
    if (written.ok() && on_fsync) on_fsync(tmp);
  }
  if (::close(fd) != 0 && written.ok()) written = IoError("write", path, errno);
  if (!written.ok()) {
    ::unlink(tmp.c_str());
    return written;
  }
  COMMITLAB_DCHECK(FolderOf(tmp) == FolderOf(path), "a temporary sits beside its file: a rename is atomic only there");
  return tmp;
}

Status CheckReplaceable(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return errno == ENOENT ? Status::OK() : IoError("write", path, errno);
  if (S_ISREG(st.st_mode)) return Status::OK();
  if (S_ISDIR(st.st_mode)) return IoError("write", path, EISDIR);
  return Status::InvalidArgument(
      fmt::format("cannot write {}: it is a {}, not a regular file; not replacing it", path, FileTypeName(st.st_mode)));
}

Status WriteFileAtomically(const std::string& path, std::string_view content) {
  COMMITLAB_RETURN_IF_ERROR(CheckReplaceable(path));
  COMMITLAB_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(path, content, /*sync=*/true));
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return IoError("write", path, err);
  }
  return FsyncDir(FolderOf(path));
}

std::string FolderOf(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

Status FsyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("open directory", dir, errno);
  const int err = FsyncFd(fd);
  ::close(fd);
  return err == 0 ? Status::OK() : IoError("fsync", dir, err);
}

}  // namespace commitlab
