#include "commitlab/core/paimon/live_writers.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace commitlab {
namespace {

constexpr std::string_view kPrefix = "writer-";
constexpr std::string_view kSuffix = ".live";
// A live writer's files carry a modification time no earlier than its start, unless the clock is
// stepped back while it runs: a second of margin for that.
constexpr int64_t kClockMarginMicros = 1'000'000;

std::string ErrnoMessage(int err) { return std::error_code(err, std::generic_category()).message(); }

int64_t MtimeMicros(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000 + st.st_mtim.tv_nsec / 1000;
}

// The clock file systems stamp modification times with (the kernel's current_time()), so a file
// written after this call is never stamped earlier.
int64_t CoarseRealtimeMicros() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME_COARSE, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000;
}

bool IsLiveFileName(std::string_view name) {
  return name.size() > kPrefix.size() + kSuffix.size() && name.starts_with(kPrefix) && name.ends_with(kSuffix);
}

// Whether the writer holding `path` is alive: its exclusive lock makes our LOCK_NB fail. A file of
// an ended writer is removed when `path` still names the file we tested. Sets *mtime to the file's.
enum class Holder { kLive, kEnded, kGone };
Holder TestHolder(const std::string& path, int64_t* mtime, bool* removed) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return Holder::kGone;  // its writer left between the listing and now
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Holder::kGone;  // not ours: a writer's file is always a regular file
  }
  *mtime = MtimeMicros(st);
  int rc;
  while ((rc = ::flock(fd, LOCK_SH | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    ::close(fd);
    return Holder::kLive;
  }
  // Ended (kill -9 leaves its file behind). Remove it only if the name still means this file.
  struct stat now {};
  if (::lstat(path.c_str(), &now) == 0 && now.st_ino == st.st_ino && now.st_dev == st.st_dev)
    *removed = ::unlink(path.c_str()) == 0;
  ::close(fd);
  return Holder::kEnded;
}

}  // namespace

Result<LiveWriter> LiveWriter::Join(const std::string& lock_dir) {
  static std::atomic<uint64_t> next{0};
  std::error_code ec;
  std::filesystem::create_directories(lock_dir, ec);
  if (ec) return Status::IOError(fmt::format("cannot create directory {}: {}", lock_dir, ec.message()));
  const std::string stem = fmt::format("{}{}-{}", kPrefix, ::getpid(), next.fetch_add(1));
  const std::string temp = fmt::format("{}/.{}.tmp", lock_dir, stem);
  std::string path = fmt::format("{}/{}{}", lock_dir, stem, kSuffix);
  // Created and locked under a name no cleaner reads, then renamed: a .live file is always locked.
  const int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return Status::IOError(fmt::format("cannot create {}: {}", temp, ErrnoMessage(errno)));
  int rc;
  while ((rc = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc != 0 || ::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    (void)::unlink(temp.c_str());
    ::close(fd);
    return Status::IOError(fmt::format("cannot announce a live writer at {}: {}", path, ErrnoMessage(err)));
  }
  return LiveWriter(fd, std::move(path));
}

LiveWriter::LiveWriter(LiveWriter&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

LiveWriter& LiveWriter::operator=(LiveWriter&& other) noexcept {
  if (this != &other) {
    Leave();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

LiveWriter::~LiveWriter() { Leave(); }

void LiveWriter::Leave() {
  if (fd_ < 0) return;
  (void)::unlink(path_.c_str());  // before the lock goes: a cleaner never meets our file unlocked
  ::close(fd_);
  fd_ = -1;
}

Result<LiveWriters> FindLiveWriters(const std::string& lock_dir) {
  // "Now" before the listing: a writer the listing misses joined after this, so every file it
  // writes is younger than the cut-off.
  LiveWriters out;
  out.cutoff_micros = CoarseRealtimeMicros();
  DIR* dir = ::opendir(lock_dir.c_str());
  if (dir == nullptr) {
    if (errno != ENOENT) return Status::IOError(fmt::format("cannot list {}: {}", lock_dir, ErrnoMessage(errno)));
    return out;
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* e = ::readdir(dir)) {
    if (IsLiveFileName(e->d_name)) names.emplace_back(e->d_name);
  }
  const int err = errno;
  ::closedir(dir);
  if (err != 0) return Status::IOError(fmt::format("cannot list {}: {}", lock_dir, ErrnoMessage(err)));
  for (const std::string& name : names) {
    int64_t mtime = 0;
    bool removed = false;
    switch (TestHolder(fmt::format("{}/{}", lock_dir, name), &mtime, &removed)) {
      case Holder::kLive:
        ++out.live;
        out.cutoff_micros = std::min(out.cutoff_micros, mtime - kClockMarginMicros);
        break;
      case Holder::kEnded: out.stale_removed += removed ? 1 : 0; break;
      case Holder::kGone: break;
    }
  }
  return out;
}

}  // namespace commitlab
