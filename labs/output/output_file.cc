#include "output/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>

#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"

namespace commitlab::cli {

Status CheckReplaceable(std::string_view flag, const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::OK();
    return Status::InvalidArgument(fmt::format("{} {}: {}", flag, path, ErrnoText(errno)));
  }
  if (S_ISLNK(st.st_mode))
    return Status::InvalidArgument(
        fmt::format("{} {}: a symbolic link; not replacing it (give the file it names)", flag, path));
  if (S_ISDIR(st.st_mode)) return Status::InvalidArgument(fmt::format("{} {}: a folder, not a file", flag, path));
  if (!S_ISREG(st.st_mode))
    return Status::InvalidArgument(
        fmt::format("{} {}: not a regular file (a device or a FIFO); not replacing it", flag, path));
  return Status::OK();
}

Result<std::unique_ptr<OutputFile>> OutputFile::Create(std::string_view flag, const std::string& path) {
  COMMITLAB_RETURN_IF_ERROR(CheckReplaceable(flag, path));
  // WriteTempBeside makes the temporary (O_EXCL, O_NOFOLLOW) and names the real path in errors.
  Result<std::string> temp = WriteTempBeside(path, "", /*sync=*/false);
  if (!temp.ok()) return Status::InvalidArgument(fmt::format("{}: {}", flag, temp.status().message()));
  std::unique_ptr<OutputFile> f(new OutputFile(std::string(flag), path, *temp));
  f->out_.open(*temp, std::ios::binary | std::ios::trunc);
  if (!f->out_) return Status::InvalidArgument(fmt::format("{}: cannot write {}", flag, path));
  return f;
}

OutputFile::~OutputFile() {
  if (committed_) return;
  if (out_.is_open()) out_.close();
  ::unlink(temp_.c_str());
}

Status OutputFile::Failed(int err) {
  if (out_.is_open()) out_.close();
  ::unlink(temp_.c_str());
  committed_ = true;  // nothing left to remove
  return Status::IOError(
      fmt::format("{}: writing {} failed: {}", flag_, path_, err != 0 ? ErrnoText(err) : "the stream failed"));
}

Status OutputFile::Commit() {
  errno = 0;
  out_.flush();
  if (!out_.good()) return Failed(errno);
  out_.close();
  if (out_.fail()) return Failed(errno);
  const int fd = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Failed(errno);
  int err = 0;
  while (::fsync(fd) != 0) {
    if (errno != EINTR) {
      err = errno;
      break;
    }
  }
  ::close(fd);
  if (err != 0) return Failed(err);
  // The path may have become something else while we wrote; check again just before the rename.
  if (Status st = CheckReplaceable(flag_, path_); !st.ok()) {
    ::unlink(temp_.c_str());
    committed_ = true;
    return st;
  }
  if (::rename(temp_.c_str(), path_.c_str()) != 0) return Failed(errno);
  committed_ = true;
  return FsyncDir(FolderOf(path_));
}

Status WriteOutput(std::string_view flag, const std::string& path, std::string_view content) {
  COMMITLAB_RETURN_IF_ERROR(CheckReplaceable(flag, path));
  Status st = WriteFileAtomically(path, content);
  if (!st.ok()) return Status::IOError(fmt::format("{}: {}", flag, st.message()));
  return Status::OK();
}

}  // namespace commitlab::cli
