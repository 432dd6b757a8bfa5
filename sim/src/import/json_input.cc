#include "json_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <utility>

#include "commitlab/core/file_read.h"

namespace commitlab::sim::import::internal {
namespace {

// A line of a Delta commit is one action; the largest real ones (an add with its stats) are a few
// kilobytes. A line past this is not a log we can read in bounded memory.
constexpr size_t kMaxLineBytes = size_t{64} << 20;
constexpr size_t kReadChunk = 64 << 10;

Result<int> OpenRegular(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::InvalidArgument(fmt::format("{}: cannot open: {}", path, ErrnoText(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(fmt::format("{}: not a regular file", path));
  }
  return fd;
}

}  // namespace

Status Bad(std::string_view file, size_t line, std::string_view why) {
  if (line == 0) return Status::InvalidArgument(fmt::format("{}: {}", file, why));
  return Status::InvalidArgument(fmt::format("{}:{}: {}", file, line, why));
}

Result<LineFile> LineFile::Open(const std::string& path) {
  COMMITLAB_ASSIGN_OR_RETURN(int fd, OpenRegular(path));
  return LineFile(path, fd);
}

LineFile::LineFile(LineFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      buffer_(std::move(other.buffer_)),
      at_(other.at_),
      eof_(other.eof_),
      line_(other.line_),
      unterminated_(other.unterminated_) {}

LineFile::~LineFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<bool> LineFile::Next(std::string* line) {
  line->clear();
  for (;;) {
    const size_t nl = buffer_.find('\n', at_);
    if (nl != std::string::npos) {
      line->append(buffer_, at_, nl - at_);
      at_ = nl + 1;
      unterminated_ = false;
      break;
    }
    line->append(buffer_, at_, std::string::npos);
    buffer_.clear();
    at_ = 0;
    if (line->size() > kMaxLineBytes)
      return Bad(path_, line_ + 1, fmt::format("a line longer than {} bytes", kMaxLineBytes));
    if (eof_) {
      if (line->empty()) return false;
      unterminated_ = true;
      break;
    }
    buffer_.resize(kReadChunk);
    ssize_t n = 0;
    do {
      n = ::read(fd_, buffer_.data(), buffer_.size());
    } while (n < 0 && errno == EINTR);
    if (n < 0) return Status::InvalidArgument(fmt::format("{}: cannot read: {}", path_, ErrnoText(errno)));
    buffer_.resize(static_cast<size_t>(n));
    eof_ = n == 0;
  }
  if (!line->empty() && line->back() == '\r') line->pop_back();
  ++line_;
  return true;
}

Result<std::string> ReadSmallFile(const std::string& path, size_t limit) {
  Result<std::string> text = ReadRegularFile(path, limit);
  if (text.ok()) return text;
  if (text.status().code() == Code::kNotFound) return Status::InvalidArgument(fmt::format("{}: no such file", path));
  return Status::InvalidArgument(fmt::format("{}: {}", path, text.status().message()));
}

size_t LineOfOffset(std::string_view text, size_t offset) {
  size_t line = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') ++line;
  return line;
}

size_t LineOfKey(std::string_view text, std::string_view key) {
  const std::string quoted = fmt::format("\"{}\"", key);
  for (size_t at = text.find(quoted); at != std::string_view::npos; at = text.find(quoted, at + 1)) {
    size_t after = at + quoted.size();
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t' || text[after] == '\n')) ++after;
    if (after < text.size() && text[after] == ':') return LineOfOffset(text, at);
  }
  return 1;
}

Result<Json> ParseJson(std::string_view text, std::string_view file, size_t line) {
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann says "[json.exception.parse_error.101] parse error at line L, column C: why".
    std::string why = e.what();
    if (const size_t colon = why.find(": ", why.find("column")); colon != std::string::npos)
      why = why.substr(colon + 2);
    const size_t at = e.byte == 0 ? 0 : e.byte - 1;
    if (line == 0) line = LineOfOffset(text, at);
    const bool cut = at >= text.size() || text.find_first_not_of(" \t\r\n", at) == std::string_view::npos;
    return Bad(file, line,
               fmt::format("not JSON{}: {}", cut ? " (the text ends too early: a truncated file?)" : "", why));
  }
}

namespace {

std::string_view TypeName(const Json& j) {
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number()) return "a number";
  if (j.is_object()) return "an object";
  if (j.is_array()) return "an array";
  return "null";
}

template <typename T, typename Check, typename Get>
Result<std::optional<T>> Opt(const Json& obj, const char* key, std::string_view where, std::string_view file,
                             size_t line, std::string_view type, Check check, Get get) {
  if (!obj.is_object()) return std::optional<T>();
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::optional<T>();
  if (!check(*it)) return Bad(file, line, fmt::format("{}.{} is {}, not {}", where, key, TypeName(*it), type));
  return std::optional<T>(get(*it));
}

}  // namespace

Result<std::optional<std::string>> OptString(const Json& obj, const char* key, std::string_view where,
                                             std::string_view file, size_t line) {
  return Opt<std::string>(
      obj, key, where, file, line, "a string", [](const Json& j) { return j.is_string(); },
      [](const Json& j) { return j.get<std::string>(); });
}

Result<std::optional<int64_t>> OptInt(const Json& obj, const char* key, std::string_view where, std::string_view file,
                                      size_t line) {
  return Opt<int64_t>(
      obj, key, where, file, line, "an integer",
      [](const Json& j) {
        return j.is_number_integer() && (!j.is_number_unsigned() || j.get<uint64_t>() <= INT64_MAX);
      },
      [](const Json& j) { return j.get<int64_t>(); });
}

Result<std::optional<bool>> OptBool(const Json& obj, const char* key, std::string_view where, std::string_view file,
                                    size_t line) {
  return Opt<bool>(
      obj, key, where, file, line, "a boolean", [](const Json& j) { return j.is_boolean(); },
      [](const Json& j) { return j.get<bool>(); });
}

std::string SafeName(std::string_view text, size_t max) {
  std::string out;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (ok) {
      out += c;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
    if (out.size() >= max) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "writer" : out;
}

}  // namespace commitlab::sim::import::internal
