// Reading a whole file the user or a table hands us, bounded: a FIFO, a device or a directory is
// refused rather than read (a FIFO would block forever, /dev/zero would never end), and a file past
// `limit` bytes is refused rather than loaded.
#ifndef COMMITLAB_CORE_FILE_READ_H_
#define COMMITLAB_CORE_FILE_READ_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab {

// The whole file at `path`. NotFound (message: the path) when it does not exist; Corruption when
// it is not a regular file or is larger than `limit`; IOError (message: what failed and why) for
// anything else the OS refuses.
Result<std::string> ReadRegularFile(const std::string& path, size_t limit);

// The first `n` bytes (fewer if the file is shorter), with the same refusals.
Result<std::string> ReadRegularFilePrefix(const std::string& path, size_t n);

// The text of an errno value ("Permission denied"), thread-safe.
std::string ErrnoText(int err);

// What a stat(2) mode names: "regular file", "directory", "symbolic link", "character device",
// "block device", "FIFO", "socket" or "special file".
std::string_view FileTypeName(unsigned mode);

// IOError "cannot WHAT PATH: <errno text>", e.g. "cannot open t/snapshot/LATEST: Permission denied".
Status IoError(std::string_view what, std::string_view path, int err);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_FILE_READ_H_
