// Replacing output files so that nobody sees half of one: not a reader during the write, and not
// anyone after a write that failed (disk full, no permission, a file-size limit).
#ifndef COMMITLAB_REPORT_REPLACE_FILES_H_
#define COMMITLAB_REPORT_REPLACE_FILES_H_

#include <filesystem>
#include <span>
#include <string>

#include "commitlab/core/status.h"

namespace commitlab::report {

struct FileText {
  std::filesystem::path path;
  std::string text;
};

// Writes each file to a temporary name in its own folder, flushed to disk and closed, and renames
// them all into place only once every one is written: a failure leaves the old files as they were
// and no temporary behind. Errors name the file (not its temporary) and the reason. Only a rename
// failing after others succeeded (an I/O error; a folder in the way is refused up front) leaves
// the earlier files replaced. Once it returns OK the new files and their names are on disk.
Status ReplaceFiles(std::span<const FileText> files);

// Whether new files can be created in `dir`: creates and removes a temporary there, so that a
// command can refuse an unwritable output folder before it spends time on the results.
Status CheckWritableDir(const std::filesystem::path& dir);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_REPLACE_FILES_H_
