// Reading a log's files for `commitlab import`: regular files only (a FIFO would block, a device
// never end), line by line with a bound on a line, and every complaint as "FILE:LINE: why".
#ifndef COMMITLAB_SIM_SRC_IMPORT_JSON_INPUT_H_
#define COMMITLAB_SIM_SRC_IMPORT_JSON_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"

namespace commitlab::sim::import::internal {

// InvalidArgument "FILE:LINE: why" (LINE 0: "FILE: why").
Status Bad(std::string_view file, size_t line, std::string_view why);

// A regular file read line by line, through one fixed buffer: memory does not depend on the file.
class LineFile {
 public:
  // InvalidArgument "PATH: ..." when it cannot be opened or is not a regular file.
  static Result<LineFile> Open(const std::string& path);
  LineFile(LineFile&& other) noexcept;
  LineFile& operator=(LineFile&&) = delete;
  ~LineFile();

  // The next line without its '\n' (and '\r'); false at the end. A line longer than the bound is
  // an error naming its number.
  Result<bool> Next(std::string* line);
  size_t line_number() const { return line_; }
  // Whether the last line read ended without a newline (a file cut in the middle of a write).
  bool last_line_unterminated() const { return unterminated_; }
  const std::string& path() const { return path_; }

 private:
  LineFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  size_t at_ = 0;
  bool eof_ = false;
  size_t line_ = 0;
  bool unterminated_ = false;
};

// A whole regular file, at most `limit` bytes; InvalidArgument "PATH: ..." otherwise.
Result<std::string> ReadSmallFile(const std::string& path, size_t limit);

// Parses `text` (the whole of FILE, or its line LINE when `line` > 0) as JSON; InvalidArgument
// "FILE:L: not JSON: <why>" with the line the parser stopped at.
Result<Json> ParseJson(std::string_view text, std::string_view file, size_t line = 0);

// The 1-based line of `text` that byte `offset` falls on.
size_t LineOfOffset(std::string_view text, size_t offset);
// The line of `"key"` as an object key in `text` (its first occurrence), else 1: where a value
// that is wrong was written.
size_t LineOfKey(std::string_view text, std::string_view key);

// Typed members: nullopt when absent (or JSON null); InvalidArgument "FILE:LINE: WHERE.key is not
// a TYPE" when present with another type.
Result<std::optional<std::string>> OptString(const Json& obj, const char* key, std::string_view where,
                                             std::string_view file, size_t line);
Result<std::optional<int64_t>> OptInt(const Json& obj, const char* key, std::string_view where, std::string_view file,
                                      size_t line);
Result<std::optional<bool>> OptBool(const Json& obj, const char* key, std::string_view where, std::string_view file,
                                    size_t line);

// A name for a lane and a scenario: letters, digits, '-' and '_' (each other byte becomes '-', runs
// of '-' one), not starting with '-', at most `max` bytes; "writer" when nothing is left.
std::string SafeName(std::string_view text, size_t max = 48);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_JSON_INPUT_H_
