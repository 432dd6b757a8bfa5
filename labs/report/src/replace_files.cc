#include "commitlab/report/replace_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <set>
#include <vector>

#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"

namespace commitlab::report {
namespace {

namespace fs = std::filesystem;

// A sibling of `path`, unique to this process; hidden, so a listing of the folder skips it.
fs::path TempFor(const fs::path& path) {
  return path.parent_path() / fmt::format(".{}.tmp-{}", path.filename().string(), getpid());
}

}  // namespace

Status ReplaceFiles(std::span<const FileText> files) {
  // Checked first, so that no file is replaced when another cannot be: a directory is the one way a
  // rename in the file's own folder fails in practice, and a device node, FIFO or symbolic link at
  // the path is someone else's, which a rename would replace.
  for (const FileText& f : files) COMMITLAB_RETURN_IF_ERROR(CheckReplaceable(f.path.string()));
  std::vector<std::string> temps;
  auto remove_temps = [&temps] {
    for (const std::string& t : temps) ::unlink(t.c_str());
  };
  for (const FileText& f : files) {
    Result<std::string> tmp = WriteTempBeside(f.path.string(), f.text, /*sync=*/true);
    if (!tmp.ok()) {
      remove_temps();
      return tmp.status();
    }
    temps.push_back(std::move(*tmp));
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (::rename(temps[i].c_str(), files[i].path.c_str()) != 0) {
      const int err = errno;
      temps.erase(temps.begin(), temps.begin() + static_cast<std::ptrdiff_t>(i));
      remove_temps();
      return IoError("write", files[i].path.string(), err);
    }
  }
  std::set<std::string> folders;  // each synced once, however many files it holds
  for (const FileText& f : files) folders.insert(FolderOf(f.path.string()));
  for (const std::string& folder : folders) COMMITLAB_RETURN_IF_ERROR(FsyncDir(folder));
  return Status::OK();
}

Status CheckWritableDir(const fs::path& dir) {
  const fs::path probe = TempFor(dir / "probe");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) return IoError("write into", dir.string(), errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return Status::OK();
}

}  // namespace commitlab::report
