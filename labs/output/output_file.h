// An output file written as a whole or not at all, for outputs streamed as they are made (an
// imported history): the lines go to a hidden temporary beside the file, which is fsynced and
// renamed over it only by Commit. Nothing replaces what is not a regular file of ours: a symbolic
// link, a device, a FIFO or a folder at the path is refused before anything is written.
#ifndef COMMITLAB_LABS_OUTPUT_FILE_H_
#define COMMITLAB_LABS_OUTPUT_FILE_H_

#include <fstream>
#include <memory>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::cli {

// InvalidArgument "FLAG PATH: why" when PATH names something other than a regular file or
// nothing (a symbolic link is refused even when it points at a regular file).
Status CheckReplaceable(std::string_view flag, const std::string& path);

class OutputFile {
 public:
  // CheckReplaceable, then a fresh temporary beside `path`. Errors name the flag and the path.
  static Result<std::unique_ptr<OutputFile>> Create(std::string_view flag, const std::string& path);
  ~OutputFile();  // removes the temporary unless committed

  std::ostream* stream() { return &out_; }
  // Flushes, fsyncs, renames over the file and fsyncs its folder. IOError "FLAG: writing PATH
  // failed: why", with the temporary removed.
  Status Commit();

 private:
  OutputFile(std::string flag, std::string path, std::string temp)
      : flag_(std::move(flag)), path_(std::move(path)), temp_(std::move(temp)) {}
  Status Failed(int err);

  std::string flag_;
  std::string path_;
  std::string temp_;
  std::ofstream out_;
  bool committed_ = false;
};

// Writes `content` to `path` whole (WriteFileAtomically), after CheckReplaceable.
Status WriteOutput(std::string_view flag, const std::string& path, std::string_view content);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_OUTPUT_FILE_H_
