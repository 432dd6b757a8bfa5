// Runs the commitlab binary this build made (COMMITLAB_BINARY, set by CMake) and captures what it
// prints: the process tests check a table with `commitlab check`, as a user would.
#ifndef COMMITLAB_PROCESS_TESTS_COMMITLAB_BINARY_H_
#define COMMITLAB_PROCESS_TESTS_COMMITLAB_BINARY_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "commitlab/sim/history.h"

namespace commitlab::process::test {

inline const char* CommitlabBinary() { return COMMITLAB_BINARY; }

struct CommandOutput {
  int exit_code = -1;
  std::string out;  // stdout only
};

// REQUIRES: no argument holds a quote or a space (the tests' own temp paths and flags).
inline CommandOutput RunCommitlab(const std::vector<std::string>& args) {
  std::string command = CommitlabBinary();
  for (const std::string& a : args) command += " '" + a + "'";
  CommandOutput r;
  std::FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// `commitlab check DIR --json [extra...]`, parsed; a null Json when it printed none.
inline sim::Json CheckJson(const std::string& dir, std::vector<std::string> extra = {}, int* exit_code = nullptr) {
  std::vector<std::string> args = {"check", dir, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CommandOutput r = RunCommitlab(args);
  if (exit_code != nullptr) *exit_code = r.exit_code;
  return sim::Json::parse(r.out, nullptr, false);
}

}  // namespace commitlab::process::test

#endif  // COMMITLAB_PROCESS_TESTS_COMMITLAB_BINARY_H_
