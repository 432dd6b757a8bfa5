// Writing a whole file so that a reader, or a crash, sees the old content or the new and never a
// part of either: the content goes to a hidden temporary in the same folder, is flushed to disk,
// and is renamed over the file. The other half of file_read.h; DirStore, the sweep's reports and
// the timeline pages write through it.
#ifndef COMMITLAB_CORE_FILE_WRITE_H_
#define COMMITLAB_CORE_FILE_WRITE_H_

#include <functional>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab {

// Writes `content` to a new hidden file in the folder of `path` (".NAME.PID-N.tmp", created with
// O_EXCL, so unique across threads and processes, mode 0666 less the umask), fsynced first when
// `sync`, and closed; returns the temporary's path for the caller to rename or link into place.
// `on_fsync`, if set, hears of the fsync. An error is IOError "cannot write PATH: <errno text>",
// naming `path` and not the temporary, and leaves nothing behind.
Result<std::string> WriteTempBeside(const std::string& path, std::string_view content, bool sync,
                                    const std::function<void(const std::string&)>& on_fsync = {});

// Replaces `path` by `content` atomically and durably: CheckReplaceable, WriteTempBeside (fsynced),
// rename(2), then FsyncDir of its folder. Errors as those calls'; on one before the rename, `path`
// is as it was and no temporary is left.
Status WriteFileAtomically(const std::string& path, std::string_view content);

// OK when `path` names nothing or a regular file: what a rename may replace. A rename replaces the
// name, not what it points at, so anything else there (a device node such as /dev/full, a FIFO, a
// socket, a symbolic link, a directory) is someone else's and is refused: InvalidArgument "cannot
// write PATH: it is a WHAT, not a regular file; not replacing it" (a directory: IOError "cannot
// write PATH: Is a directory"). Checked before, not at, the rename: it guards a user's mistake,
// not a race with another process.
Status CheckReplaceable(const std::string& path);

// fsyncs the directory `dir`, so that a rename, link or new entry in it survives a power loss.
// IOError "cannot open directory DIR: ..." or "cannot fsync DIR: ...".
Status FsyncDir(const std::string& dir);

// The folder holding `path` ("." for a bare name).
std::string FolderOf(const std::string& path);

// Writes all of `data` to `fd`, across short writes and EINTR; IOError "cannot write PATH: ...".
Status WriteAll(int fd, std::string_view data, const std::string& path);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_FILE_WRITE_H_
