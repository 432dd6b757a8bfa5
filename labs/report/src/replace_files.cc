#include "commitlab/report/replace_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace commitlab::report {
namespace {

namespace fs = std::filesystem;

Status WriteError(const fs::path& path, int err) {
  return Status::IOError(fmt::format("cannot write {}: {}", path.string(), std::strerror(err)));
}

// A sibling of `path`, unique to this process; hidden, so a listing of the folder skips it.
fs::path TempFor(const fs::path& path) {
  return path.parent_path() / fmt::format(".{}.tmp-{}", path.filename().string(), getpid());
}

// Writes `text` to `tmp`, then fsync and close: a full disk or a quota may only show at either.
// Returns 0 or the errno; on failure `tmp` is removed.
int WriteAndClose(const fs::path& tmp, const std::string& text) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) return errno;
  int err = 0;
  for (size_t done = 0; done < text.size() && err == 0;) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n >= 0) {
      done += static_cast<size_t>(n);
    } else if (errno != EINTR) {
      err = errno;
    }
  }
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) ::unlink(tmp.c_str());
  return err;
}

}  // namespace

Status ReplaceFiles(std::span<const FileText> files) {
  // The one way a rename in the file's own folder fails in practice; checked first, so that no
  // file is replaced when another cannot be.
  for (const FileText& f : files) {
    std::error_code ec;
    if (fs::is_directory(fs::symlink_status(f.path, ec))) return WriteError(f.path, EISDIR);
  }
  std::vector<fs::path> temps;
  auto remove_temps = [&temps] {
    for (const fs::path& t : temps) ::unlink(t.c_str());
  };
  for (const FileText& f : files) {
    const fs::path tmp = TempFor(f.path);
    if (const int err = WriteAndClose(tmp, f.text); err != 0) {
      remove_temps();
      return WriteError(f.path, err);
    }
    temps.push_back(tmp);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (::rename(temps[i].c_str(), files[i].path.c_str()) != 0) {
      const int err = errno;
      temps.erase(temps.begin(), temps.begin() + static_cast<std::ptrdiff_t>(i));
      remove_temps();
      return WriteError(files[i].path, err);
    }
  }
  return Status::OK();
}

Status CheckWritableDir(const fs::path& dir) {
  const fs::path probe = TempFor(dir / "probe");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) return Status::IOError(fmt::format("cannot write into {}: {}", dir.string(), std::strerror(errno)));
  ::close(fd);
  ::unlink(probe.c_str());
  return Status::OK();
}

}  // namespace commitlab::report
