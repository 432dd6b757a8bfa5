// `commitlab replay FILE`: re-runs the configuration recorded in a trace's header and compares
// the new trace with the old one line by line. A simulated run must come back byte-identical;
// the first differing line is the place to start looking when it does not.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli.h"
#include "commitlab/core/json.h"
#include "commitlab/sim/trace.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr std::string_view kCommand = "replay";

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::InvalidArgument(fmt::format("cannot open trace file {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The recorded command and its arguments, from the header line.
Result<std::vector<std::string>> RecordedCommand(const std::string& path, std::string_view trace) {
  const std::string_view first = trace.substr(0, trace.find('\n'));
  Result<JsonValue> header = ParseJson(first);
  if (!header.ok()) return Status::InvalidArgument(fmt::format("{}:1: not a trace header: {}", path, header.status().message()));
  Result<std::string> type = GetString(*header, "type");
  Result<std::string> command = GetString(*header, "command");
  Result<const JsonValue::Array*> argv = GetArray(*header, "argv");
  if (!type.ok() || *type != "header" || !command.ok() || !argv.ok())
    return Status::InvalidArgument(fmt::format("{}:1: not a trace header (expected {{\"type\":\"header\",\"command\":...,\"argv\":[...]}})", path));
  std::vector<std::string> out = {*command};
  for (const JsonValue& a : **argv) {
    if (!a.is_string()) return Status::InvalidArgument(fmt::format("{}:1: argv holds a non-string", path));
    out.push_back(a.as_string());
  }
  return out;
}

// Runs this same binary with `args`, its stdout and stderr discarded; returns its exit code.
int RunSelf(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    std::string self = "commitlab";
    argv.push_back(self.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    FILE* devnull = std::fopen("/dev/null", "w");
    if (devnull != nullptr) {
      dup2(fileno(devnull), STDOUT_FILENO);
      dup2(fileno(devnull), STDERR_FILENO);
    }
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

int RunReplay(const std::vector<std::string>& args) {
  po::options_description options("commitlab replay TRACE_FILE");
  std::string path;
  options.add_options()("help,h", "show this help")("trace-file", po::value(&path), "trace written with --trace");
  po::positional_options_description positional;
  positional.add("trace-file", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (path.empty()) return UsageError(kCommand, "missing the trace file to replay");
  Result<std::string> recorded = ReadFile(path);
  if (!recorded.ok()) return UsageError(kCommand, recorded.status().message());
  Result<std::vector<std::string>> command = RecordedCommand(path, *recorded);
  if (!command.ok()) return UsageError(kCommand, command.status().message());

  const fs::path fresh = fs::temp_directory_path() / fmt::format("commitlab-replay-{}.jsonl", getpid());
  std::vector<std::string> rerun = *command;
  rerun.push_back("--trace");
  rerun.push_back(fresh.string());
  const int code = RunSelf(rerun);
  Result<std::string> replayed = ReadFile(fresh.string());
  fs::remove(fresh);
  if (!replayed.ok() || code < 0 || code == kExitUsage) {
    fmt::print(stderr, "commitlab replay: re-running `commitlab {}` failed (exit code {})\n", fmt::join(*command, " "), code);
    return kExitUsage;
  }
  const std::string diff = sim::DescribeFirstDifference(*recorded, *replayed);
  if (diff.empty()) {
    const auto lines = std::count(recorded->begin(), recorded->end(), '\n');
    fmt::print("replay identical: {} lines of `commitlab {}`\n", lines, fmt::join(*command, " "));
    return kExitOk;
  }
  fmt::print("replay differs from {}:\n{}\n", path, diff);
  return kExitFailed;
}

}  // namespace commitlab::cli
