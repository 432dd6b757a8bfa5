#include "commitlab/core/file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "commitlab/core/check.h"

namespace commitlab {
namespace {

// strerror_r comes in a GNU flavour (returns the text) and an XSI one (fills the buffer); these
// overloads accept either. strerror itself is not thread-safe.
[[maybe_unused]] const char* StrerrorText(const char* text, const char*) { return text; }
[[maybe_unused]] const char* StrerrorText(int rc, const char* buf) { return rc == 0 ? buf : "unknown error"; }

// Reads up to `limit` bytes; `over_limit_fails` decides whether more is an error or just left.
Result<std::string> Read(const std::string& path, size_t limit, bool over_limit_fails) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer before fstat can
  // refuse it. It changes nothing for a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound(path);
    return IoError("open", path, errno);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return IoError("stat", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::Corruption(fmt::format("{}: not a regular file (a {})", path, FileTypeName(st.st_mode)));
  }
  std::string data;
  char buf[16384];
  while (data.size() < limit || over_limit_fails) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return IoError("read", path, err);
    }
    if (n == 0) break;
    if (data.size() + static_cast<size_t>(n) > limit) {
      if (!over_limit_fails) {
        data.append(buf, limit - data.size());
        break;
      }
      ::close(fd);
      return Status::Corruption(fmt::format("{}: file is larger than {} bytes", path, limit));
    }
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  COMMITLAB_CHECK(data.size() <= limit, "a read returns at most its limit: a huge file is refused or cut there");
  return data;
}

}  // namespace

std::string ErrnoText(int err) {
  char buf[256] = {};
  return StrerrorText(strerror_r(err, buf, sizeof(buf)), buf);
}

Status IoError(std::string_view what, std::string_view path, int err) {
  return Status::IOError(fmt::format("cannot {} {}: {}", what, path, ErrnoText(err)));
}

Result<std::string> ReadRegularFile(const std::string& path, size_t limit) { return Read(path, limit, true); }

Result<std::string> ReadRegularFilePrefix(const std::string& path, size_t n) { return Read(path, n, false); }

std::string_view FileTypeName(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "regular file";
    case S_IFDIR: return "directory";
    case S_IFLNK: return "symbolic link";
    case S_IFCHR: return "character device";
    case S_IFBLK: return "block device";
    case S_IFIFO: return "FIFO";
    case S_IFSOCK: return "socket";
    default: return "special file";
  }
}

}  // namespace commitlab
