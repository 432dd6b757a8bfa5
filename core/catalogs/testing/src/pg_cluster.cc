#include "commitlab/catalogs/pg_cluster.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace commitlab::catalogs {
namespace {

namespace fs = std::filesystem;

std::string FindBindir() {
  if (const char* env = std::getenv("COMMITLAB_PG_BINDIR"); env != nullptr && *env != '\0') return env;
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec))
    if (fs::exists(e.path() / "bin" / "pg_ctl")) found.push_back(e.path() / "bin");
  if (found.empty()) return "";
  // Versions are directory names ("15", "16"): the numerically largest.
  std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
    return std::atoi(a.parent_path().filename().c_str()) < std::atoi(b.parent_path().filename().c_str());
  });
  return found.back().string();
}

std::string Tail(const fs::path& log) {
  std::ifstream in(log);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  if (s.size() > 1200) s = "..." + s.substr(s.size() - 1200);
  return s;
}

// Runs argv (as `postgres` through runuser when asked), its output appended to `log`. Returns the
// exit status, or -1 when it could not be started. Everything the child needs is made before the
// fork: after it, in a process that may have threads, the child only calls dup2, execvp and _exit.
int Run(std::vector<std::string> argv, bool as_postgres, const fs::path& log) {
  if (as_postgres) argv.insert(argv.begin(), {"runuser", "-u", "postgres", "--"});
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const pid_t pid = fork();
  if (pid == 0) {
    if (out >= 0) {
      dup2(out, STDOUT_FILENO);
      dup2(out, STDERR_FILENO);
    }
    execvp(args[0], args.data());
    _exit(127);
  }
  if (out >= 0) close(out);
  if (pid < 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

PgCluster::PgCluster(std::string bindir, std::string dir, bool as_postgres)
    : bindir_(std::move(bindir)), dir_(std::move(dir)), as_postgres_(as_postgres) {
  conninfo_ = fmt::format("host='{}' dbname=postgres user=postgres", dir_);
}

Result<std::unique_ptr<PgCluster>> PgCluster::Start(PgDurability durability) {
  const std::string bindir = FindBindir();
  if (bindir.empty())
    return Status::InvalidArgument(
        "no PostgreSQL server: neither $COMMITLAB_PG_BINDIR nor /usr/lib/postgresql/*/bin/pg_ctl (run.sh installs "
        "Debian's postgresql)");
  std::string templ = (fs::temp_directory_path() / "commitlab-pg-XXXXXX").string();
  if (mkdtemp(templ.data()) == nullptr) return Status::IOError(fmt::format("cannot create {}", templ));
  const bool as_postgres = geteuid() == 0;
  if (as_postgres) {
    const passwd* pw = getpwnam("postgres");
    if (pw == nullptr) {
      fs::remove_all(templ);
      return Status::InvalidArgument(
          "PostgreSQL refuses to run as root and there is no `postgres` user to run it as (Debian's postgresql "
          "package creates one)");
    }
    if (chown(templ.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      fs::remove_all(templ);
      return Status::IOError(fmt::format("cannot hand {} to the postgres user", templ));
    }
  }
  std::unique_ptr<PgCluster> c(new PgCluster(bindir, templ, as_postgres));
  c->StartWatchdog();  // before initdb: a kill at any point from here on leaves nothing behind
  // Our commands' output (written by us, as root or not) and the server's own log (written by the
  // server, as postgres) are two files: neither has to write into the other's.
  const fs::path log = fs::path(templ) / "commands.log";
  const std::string data = (fs::path(templ) / "data").string();
  if (Run({bindir + "/initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"}, as_postgres,
          log) != 0)
    return Status::IOError(fmt::format("initdb into {} failed:\n{}", data, Tail(log)));
  // Only a Unix socket in our own folder: no TCP port to collide with or to expose.
  c->options_ = fmt::format("-c listen_addresses='' -k '{}'", templ);
  if (durability == PgDurability::kFast)
    c->options_ += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
  COMMITLAB_RETURN_IF_ERROR(c->RunServer());
  return c;
}

Status PgCluster::RunServer() {
  const fs::path log = fs::path(dir_) / "commands.log";
  const fs::path server_log = fs::path(dir_) / "server.log";
  const std::string data = dir_ + "/data";
  if (Run({bindir_ + "/pg_ctl", "-D", data, "-l", server_log.string(), "-o", options_, "-w", "-t", "60", "start"},
          as_postgres_, log) != 0)
    return Status::IOError(fmt::format("pg_ctl start in {} failed:\n{}{}", data, Tail(log), Tail(server_log)));
  running_ = true;
  return Status::OK();
}

Status PgCluster::Restart() {
  if (running_) return Status::OK();
  return RunServer();
}

void PgCluster::StartWatchdog() {
  // A process of its own, in its own session (a signal to the test's process group spares it),
  // that waits for the end of a pipe only we hold: when this object goes, or the test process
  // dies however it dies, it stops the server and removes the folder. No server outlives a test.
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  // Then: stop the server if it runs, and until the folder stays gone (up to 10 s), kill whatever
  // still works on it (an initdb or pg_ctl we started outlives us; initdb's bootstrap backend
  // writes on until its pipe closes) and remove it. The paths are arguments, not script text: the
  // kill pattern must not match this script's own command line, nor a quote in them break it.
  static constexpr char kScript[] =
      "read _; $4 \"$3/pg_ctl\" -D \"$1\" -m immediate -w stop >/dev/null 2>&1; i=0; while [ $i -lt 100 ]; do "
      "pkill -9 -f -- \"-D $1\"; rm -rf \"$2\"; sleep 0.1; [ -e \"$2\" ] || break; i=$((i+1)); done";
  std::string data = dir_ + "/data", dir = dir_, bindir = bindir_;
  std::string as = as_postgres_ ? "runuser -u postgres --" : "";
  std::vector<char*> args = {const_cast<char*>("sh"),
                             const_cast<char*>("-c"),
                             const_cast<char*>(kScript),
                             const_cast<char*>("watchdog"),
                             data.data(),
                             dir.data(),
                             bindir.data(),
                             as.data(),
                             nullptr};
  const pid_t pid = fork();
  if (pid == 0) {
    setsid();
    dup2(fds[0], STDIN_FILENO);  // the copy is not close-on-exec; both originals are
    execv("/bin/sh", args.data());
    _exit(127);
  }
  close(fds[0]);
  if (pid < 0) {
    close(fds[1]);
    return;
  }
  watchdog_pid_ = pid;
  watchdog_fd_ = fds[1];
}

Status PgCluster::Stop() {
  if (!running_) return Status::OK();
  running_ = false;
  const fs::path log = fs::path(dir_) / "commands.log";
  if (Run({bindir_ + "/pg_ctl", "-D", dir_ + "/data", "-m", "immediate", "-w", "stop"}, as_postgres_, log) != 0)
    return Status::IOError(fmt::format("pg_ctl stop failed:\n{}", Tail(log)));
  return Status::OK();
}

PgCluster::~PgCluster() {
  if (watchdog_pid_ > 0) {
    close(watchdog_fd_);  // the watchdog stops the server and removes the folder
    int status = 0;
    waitpid(watchdog_pid_, &status, 0);
    return;
  }
  (void)Stop();
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

}  // namespace commitlab::catalogs
