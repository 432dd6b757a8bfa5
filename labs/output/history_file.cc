#include "output/history_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "version/version.h"

namespace commitlab::cli {

sim::Json HistoryHeader(std::string_view command, const std::vector<std::string>& argv, sim::Json settings,
                        sim::Json plan, const scenarios::Scenario& scenario) {
  return {
      {"commitlab", {{"version", CommitlabVersion()}, {"git", CommitlabGitCommit()}}},
      {"command", command},
      {"argv", argv},
      {"settings", std::move(settings)},
      {"plan", std::move(plan)},
      {"scenario", {{"file", scenario.file_name}, {"sha256", sim::Sha256Hex(scenario.text)}, {"text", scenario.text}}}};
}

Result<std::unique_ptr<HistoryFile>> HistoryFile::Create(const std::string& path, const sim::Json& header) {
  std::unique_ptr<HistoryFile> f(new HistoryFile(path));
  errno = 0;
  f->file_.open(path, std::ios::binary | std::ios::trunc);
  if (!f->file_) {
    return Status::InvalidArgument(
        fmt::format("--trace: cannot write {}: {}", path, errno != 0 ? std::strerror(errno) : "cannot open"));
  }
  errno = 0;
  f->history_.Header(header);
  f->file_.flush();
  if (!f->history_.status().ok() || !f->file_.good()) return f->Failed(errno);
  return f;
}

Status HistoryFile::Finish(const sim::Json& footer) {
  errno = 0;
  history_.Footer(footer);
  file_.flush();
  const bool written = history_.status().ok() && file_.good();
  const int err = errno;
  file_.close();
  if (!written || file_.fail()) return Failed(err);
  finished_ = true;
  return Status::OK();
}

HistoryFile::~HistoryFile() {
  if (finished_) return;
  if (file_.is_open()) file_.close();
  std::error_code ec;
  if (std::filesystem::is_regular_file(path_, ec)) std::filesystem::remove(path_, ec);
}

Status HistoryFile::Failed(int err) {
  if (file_.is_open()) file_.close();  // the destructor removes what was written
  return Status::IOError(
      fmt::format("--trace: writing {} failed: {}", path_, err != 0 ? std::strerror(err) : "the stream failed"));
}

namespace {

// A history of the largest race (a million commits) stays well under this.
constexpr uintmax_t kMaxHistoryBytes = uintmax_t{4} << 30;

}  // namespace

std::string HistoryWhere(const std::string& path, std::string_view message) {
  if (message.starts_with("line ")) {
    const size_t colon = message.find(':');
    if (colon != std::string_view::npos)
      return fmt::format("{}:{}:{}", path, message.substr(5, colon - 5), message.substr(colon + 1));
  }
  return fmt::format("{}: {}", path, message);
}

namespace {

// Refuses a path that is not a history file: missing, or not a regular file (a FIFO would block, a
// device never end). Both readers below start here.
Status CheckHistoryPath(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    return Status::InvalidArgument(fmt::format("cannot open history file {}", path));
  if (!std::filesystem::is_regular_file(status))
    return Status::InvalidArgument(fmt::format("{} is not a regular file", path));
  return Status::OK();
}

// Opens a history file for reading whole; too large is refused too.
Result<std::unique_ptr<std::ifstream>> OpenHistory(const std::string& path) {
  COMMITLAB_RETURN_IF_ERROR(CheckHistoryPath(path));
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) > kMaxHistoryBytes)
    return Status::InvalidArgument(fmt::format("{} is larger than {} bytes", path, kMaxHistoryBytes));
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) return Status::InvalidArgument(fmt::format("cannot open history file {}", path));
  return in;
}

}  // namespace

Result<std::vector<sim::Json>> ReadHistoryFile(const std::string& path) {
  std::vector<sim::Json> lines;
  COMMITLAB_RETURN_IF_ERROR(ForEachHistoryLine(path, [&lines](sim::Json line, size_t) {
    lines.push_back(std::move(line));
    return Status::OK();
  }));
  return lines;
}

namespace {

// The longest line a history holds is its footer, with the schedule of the largest race (tens of
// megabytes), or its header, with a scenario's text.
constexpr size_t kMaxHistoryLineBytes = size_t{256} << 20;
constexpr size_t kReadChunk = size_t{64} << 10;

}  // namespace

Result<std::unique_ptr<HistoryFileLines>> HistoryFileLines::Open(const std::string& path) {
  COMMITLAB_RETURN_IF_ERROR(CheckHistoryPath(path));
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return Status::InvalidArgument(fmt::format("cannot open history file {}", path));
  return std::unique_ptr<HistoryFileLines>(new HistoryFileLines(f));
}

HistoryFileLines::~HistoryFileLines() { std::fclose(file_); }

Result<bool> HistoryFileLines::Next(std::string* line) {
  size_t scanned = at_;  // no newline in buffer_[at_, scanned)
  for (;;) {
    const size_t newline = buffer_.find('\n', scanned);
    if (newline != std::string::npos) {
      line->assign(buffer_, at_, newline - at_);
      at_ = newline + 1;
      ++line_number_;
      return true;
    }
    if (buffer_.size() - at_ > kMaxHistoryLineBytes) {
      return Status::InvalidArgument(
          fmt::format("line {}: longer than {} MiB, not a history line", line_number_ + 1, kMaxHistoryLineBytes >> 20));
    }
    if (eof_) break;
    buffer_.erase(0, at_);  // keep only the line begun
    at_ = 0;
    scanned = buffer_.size();
    buffer_.resize(scanned + kReadChunk);
    const size_t got = std::fread(buffer_.data() + scanned, 1, kReadChunk, file_);
    buffer_.resize(scanned + got);
    if (got < kReadChunk) {
      if (std::ferror(file_)) return Status::InvalidArgument(fmt::format("line {}: cannot read it", line_number_ + 1));
      eof_ = true;
    }
  }
  if (at_ == buffer_.size()) return false;
  line->assign(buffer_, at_);  // the last line, without a newline
  at_ = buffer_.size();
  ++line_number_;
  return true;
}

Result<sim::Json> ReadHistoryHeader(const std::string& path) {
  Result<std::unique_ptr<std::ifstream>> in = OpenHistory(path);
  if (!in.ok()) return in.status();
  std::string line;
  if (!std::getline(**in, line)) return Status::InvalidArgument(fmt::format("{}: empty file, not a history", path));
  Result<sim::Json> j = sim::ParseHistoryLine(line, 1);
  if (!j.ok()) return Status::InvalidArgument(HistoryWhere(path, j.status().message()));
  return j;
}

Status ForEachHistoryLine(const std::string& path, const std::function<Status(sim::Json, size_t)>& each) {
  Result<std::unique_ptr<std::ifstream>> in = OpenHistory(path);
  if (!in.ok()) return in.status();
  std::string line;
  size_t n = 0;
  while (std::getline(**in, line)) {
    ++n;
    Result<sim::Json> j = sim::ParseHistoryLine(line, n);
    if (!j.ok()) return Status::InvalidArgument(HistoryWhere(path, j.status().message()));
    COMMITLAB_RETURN_IF_ERROR(each(std::move(*j), n));
  }
  if (n == 0) return Status::InvalidArgument(fmt::format("{}: empty file, not a history", path));
  return Status::OK();
}

}  // namespace commitlab::cli
