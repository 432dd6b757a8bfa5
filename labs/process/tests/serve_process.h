// `commitlab catalog serve` as a process of its own, for tests that stop, crash or starve it.
#ifndef COMMITLAB_PROCESS_TESTS_SERVE_PROCESS_H_
#define COMMITLAB_PROCESS_TESTS_SERVE_PROCESS_H_

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "commitlab_binary.h"

extern char** environ;

namespace commitlab::process::test {

// `catalog serve` as its own process. Its first line names the port it listens on.
class ServeProcess {
 public:
  // `prefix` runs before the binary (a shell that lowers a limit, say, then execs it).
  explicit ServeProcess(std::vector<std::string> args, std::vector<std::string> prefix = {}) {
    args.insert(args.begin(), {CommitlabBinary(), "catalog", "serve", "--port", "0"});
    args.insert(args.begin(), prefix.begin(), prefix.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int fds[2];
    if (::pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    const int rc = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
      ::close(fds[0]);
      pid_ = -1;
      return;
    }
    out_ = ::fdopen(fds[0], "r");
    char line[512] = {};
    if (std::fgets(line, sizeof line, out_) != nullptr) {
      const std::string text = line;
      const size_t at = text.find("127.0.0.1:");
      if (at != std::string::npos) port_ = std::stoi(text.substr(at + 10));
    }
  }
  ~ServeProcess() {
    if (pid_ > 0) ::kill(pid_, SIGKILL);
    (void)Wait();
  }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  void Interrupt() { ::kill(pid_, SIGINT); }
  // Waits for the server to exit; its exit code (-1 when a signal ended it).
  int Wait() {
    if (out_ != nullptr) {
      // Read to the end, so that what it prints as it stops has somewhere to go.
      char buf[512];
      while (std::fgets(buf, sizeof buf, out_) != nullptr) {
      }
      std::fclose(std::exchange(out_, nullptr));
    }
    if (pid_ <= 0) return -1;
    int status = 0;
    ::waitpid(std::exchange(pid_, -1), &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  std::FILE* out_ = nullptr;
  int port_ = 0;
};

}  // namespace commitlab::process::test

#endif  // COMMITLAB_PROCESS_TESTS_SERVE_PROCESS_H_
