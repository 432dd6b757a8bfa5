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

// Replaces `path` by `content` atomically and durably: WriteTempBeside (fsynced), rename(2), then
// FsyncDir of its folder. Errors as WriteTempBeside's (or FsyncDir's); on one before the rename,
// `path` is as it was and no temporary is left.
Status WriteFileAtomically(const std::string& path, std::string_view content);

// WriteFileAtomically for an output file a command was told to write (--port-file, -o): `path`
// must be a new name or a regular file, never a symbolic link, a device node, a FIFO, a socket or
// a folder, which a rename would replace (as root, /dev/full). InvalidArgument "PATH is a <kind>,
// not a regular file: it is not replaced" for those; otherwise WriteFileAtomically's errors.
Status WriteOutputFile(const std::string& path, std::string_view content);

// fsyncs the directory `dir`, so that a rename, link or new entry in it survives a power loss.
// IOError "cannot open directory DIR: ..." or "cannot fsync DIR: ...".
Status FsyncDir(const std::string& dir);

// The folder holding `path` ("." for a bare name).
std::string FolderOf(const std::string& path);

// Writes all of `data` to `fd`, across short writes and EINTR; IOError "cannot write PATH: ...".
Status WriteAll(int fd, std::string_view data, const std::string& path);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_FILE_WRITE_H_
