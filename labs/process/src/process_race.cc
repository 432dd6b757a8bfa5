#include "commitlab/process/process_race.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <system_error>
#include <utility>

#include "commitlab/core/rng.h"
#include "commitlab/process/writer_json.h"
#include "commitlab/sim/writer_name.h"

extern char** environ;

namespace commitlab::process {
namespace {

using Clock = std::chrono::steady_clock;

std::string ErrnoMessage(int err) { return std::error_code(err, std::generic_category()).message(); }

class Pipe {
 public:
  Status Open() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) return Status::InvalidArgument(fmt::format("pipe: {}", ErrnoMessage(errno)));
    return Status::OK();
  }
  ~Pipe() {
    for (int& fd : fds_) CloseEnd(fd);
  }
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  int TakeReadEnd() { return std::exchange(fds_[0], -1); }
  void CloseWriteEnd() { CloseEnd(fds_[1]); }

 private:
  static void CloseEnd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

// One running `commitlab writer` process and what it has printed so far.
struct Child {
  size_t writer = 0;  // index into the result's writers
  pid_t pid = -1;
  int out = -1;  // its stdout: ack lines, then the summary
  int err = -1;  // its stderr
  std::string out_buffer = {};
  std::string err_text = {};
  bool killed = false;
};

void CloseFd(int* fd) {
  if (*fd >= 0) ::close(*fd);
  *fd = -1;
}

// Reads what is available; false at end of file.
bool Drain(int fd, std::string* into) {
  char buf[8192];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into->append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;  // n == 0: end of file
  }
}

class Supervisor {
 public:
  explicit Supervisor(const ProcessRaceOptions& options) : options_(options), rng_(options.kill_seed) {
    for (int i = 0; i < options.writers; ++i) result_.writers.push_back({.user = sim::WriterName(i)});
  }

  // On an early return: no writer outlives the race.
  ~Supervisor() {
    for (const auto& c : children_) {
      ::kill(c->pid, SIGKILL);
      int status = 0;
      while (::waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
      }
      CloseFd(&c->out);
      CloseFd(&c->err);
    }
  }
  Supervisor(const Supervisor&) = delete;
  Supervisor& operator=(const Supervisor&) = delete;

  Result<ProcessRaceResult> Run() {
    const Clock::time_point deadline = Clock::now() + std::chrono::microseconds(options_.timeout_micros);
    for (size_t i = 0; i < result_.writers.size(); ++i) COMMITLAB_RETURN_IF_ERROR(Start(i));
    Clock::time_point next_kill = NextKillTime();
    while (!children_.empty()) {
      if (Clock::now() >= deadline) {
        return Status::InvalidArgument(fmt::format("the writers did not finish within {:g} s; all of them were killed",
                                                   static_cast<double>(options_.timeout_micros) / 1e6));
      }
      const bool kills_left = kills_sent_ < options_.kills;
      COMMITLAB_RETURN_IF_ERROR(PollOnce(MillisUntil(kills_left ? std::min(next_kill, deadline) : deadline)));
      if (kills_left && Clock::now() >= next_kill) {
        COMMITLAB_RETURN_IF_ERROR(KillOne());
        next_kill = NextKillTime();
      }
    }
    return std::move(result_);
  }

 private:
  // Rounded up: a poll that wakes a little early would spin until the moment passes.
  static int MillisUntil(Clock::time_point t) {
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(t - Clock::now()).count();
    return static_cast<int>(std::clamp<int64_t>((left + 999) / 1000, 0, 60'000));
  }

  Clock::time_point NextKillTime() {
    const uint64_t span = static_cast<uint64_t>(std::max<int64_t>(1, options_.max_kill_delay_micros));
    return Clock::now() + std::chrono::microseconds(rng_.Next() % span);
  }

  Status Start(size_t writer) {
    WriterProcesses& w = result_.writers[writer];
    w.summarized = false;
    std::vector<std::string> args = WriterArgs(options_, w.user);
    args.insert(args.begin(), options_.commitlab);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    Pipe out, err;
    COMMITLAB_RETURN_IF_ERROR(out.Open());
    COMMITLAB_RETURN_IF_ERROR(err.Open());
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out.write_end(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.write_end(), STDERR_FILENO);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, options_.commitlab.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
      return Status::InvalidArgument(fmt::format("cannot start {}: {}", options_.commitlab, ErrnoMessage(rc)));
    out.CloseWriteEnd();
    err.CloseWriteEnd();
    Child c{.writer = writer, .pid = pid, .out = out.TakeReadEnd(), .err = err.TakeReadEnd()};
    ::fcntl(c.out, F_SETFL, O_NONBLOCK);
    ::fcntl(c.err, F_SETFL, O_NONBLOCK);
    children_.push_back(std::make_unique<Child>(std::move(c)));
    ++w.starts;
    return Status::OK();
  }

  Status PollOnce(int timeout_ms) {
    std::vector<pollfd> fds;
    for (const auto& c : children_) {
      fds.push_back({c->out, POLLIN, 0});
      fds.push_back({c->err, POLLIN, 0});
    }
    const int n = ::poll(fds.data(), fds.size(), timeout_ms);
    if (n < 0 && errno != EINTR) return Status::InvalidArgument(fmt::format("poll: {}", ErrnoMessage(errno)));
    if (n <= 0) return Status::OK();
    std::vector<size_t> ended;
    for (size_t i = 0; i < children_.size(); ++i) {
      Child& c = *children_[i];
      if (c.err >= 0 && fds[2 * i + 1].revents != 0 && !Drain(c.err, &c.err_text)) CloseFd(&c.err);
      if (c.out >= 0 && fds[2 * i].revents != 0) {
        const bool open = Drain(c.out, &c.out_buffer);
        TakeLines(c);
        if (!open) CloseFd(&c.out);
      }
      if (c.out < 0 && c.err < 0) ended.push_back(i);
    }
    for (auto it = ended.rbegin(); it != ended.rend(); ++it) {
      std::unique_ptr<Child> c = std::move(children_[*it]);
      children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(*it));
      COMMITLAB_ASSIGN_OR_RETURN(int status, Wait(*c));
      if (Settle(*c, status)) COMMITLAB_RETURN_IF_ERROR(Start(c->writer));
    }
    return Status::OK();
  }

  void TakeLines(Child& c) {
    WriterProcesses& w = result_.writers[c.writer];
    size_t start = 0;
    for (size_t nl; (nl = c.out_buffer.find('\n', start)) != std::string::npos; start = nl + 1) {
      const sim::Json line = sim::Json::parse(c.out_buffer.begin() + static_cast<std::ptrdiff_t>(start),
                                              c.out_buffer.begin() + static_cast<std::ptrdiff_t>(nl), nullptr, false);
      if (std::optional<Ack> ack = ParseAckJson(line)) {
        w.acks.push_back(std::move(*ack));
      } else if (std::optional<TableWriterResult> r = ParseResultJson(line)) {
        w.stats += r->stats;
        w.records.insert(w.records.end(), r->records.begin(), r->records.end());
        w.fired_faults.insert(w.fired_faults.end(), r->fired_faults.begin(), r->fired_faults.end());
        w.error = r->error;
        w.error_code = r->error_code;
        w.summarized = true;
      }
    }
    c.out_buffer.erase(0, start);  // a line cut short by a kill stays incomplete and is dropped
  }

  // The child's exit status, once its pipes are closed (it is exiting, or dead).
  static Result<int> Wait(const Child& c) {
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0) {
      if (errno != EINTR) return Status::InvalidArgument(fmt::format("waitpid: {}", ErrnoMessage(errno)));
    }
    return status;
  }

  // Records how the child ended; true when our SIGKILL ended it and it must start again.
  bool Settle(Child& c, int status) {
    WriterProcesses& w = result_.writers[c.writer];
    if (c.killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      ++w.killed;
      ++result_.kills;
      return true;
    }
    w.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (!c.out_buffer.empty()) {  // a last line without its newline
      c.out_buffer += '\n';
      TakeLines(c);
    }
    if (w.exit_code == 0 && w.error.empty() && !w.summarized) w.error = fmt::format("{} printed no summary", w.user);
    if (w.exit_code != 0 && w.error.empty()) {
      std::string text = c.err_text;
      while (!text.empty() && text.back() == '\n') text.pop_back();
      w.error = fmt::format("{} exited with status {}{}", w.user, w.exit_code, text.empty() ? "" : ": " + text);
    }
    return false;
  }

  Status KillOne() {
    std::vector<Child*> alive;
    for (const auto& c : children_)
      if (!c->killed) alive.push_back(c.get());
    if (alive.empty()) return Status::OK();
    Child* victim = alive[rng_.Next() % alive.size()];
    victim->killed = true;
    ++kills_sent_;
    if (::kill(victim->pid, SIGKILL) != 0 && errno != ESRCH)
      return Status::InvalidArgument(fmt::format("kill {}: {}", victim->pid, ErrnoMessage(errno)));
    return Status::OK();
  }

  const ProcessRaceOptions& options_;
  Rng rng_;
  ProcessRaceResult result_;
  std::vector<std::unique_ptr<Child>> children_;
  int kills_sent_ = 0;  // result_.kills counts those that landed (a finished child ignores one)
};

}  // namespace

std::vector<std::string> WriterArgs(const ProcessRaceOptions& options, const std::string& user) {
  std::vector<std::string> args = {
      "writer", "--dir", options.dir, "--user", user, "--until", std::to_string(options.commits), "--json"};
  args.insert(args.end(), options.writer_args.begin(), options.writer_args.end());
  return args;
}

Result<ProcessRaceResult> RunProcessRace(const ProcessRaceOptions& options) {
  if (options.writers < 1) return Status::InvalidArgument("a process race needs at least one writer");
  return Supervisor(options).Run();
}

}  // namespace commitlab::process
