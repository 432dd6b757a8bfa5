// commitlab: the command-line entry point. Each subcommand lives in its own file.
#include <dlfcn.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "catalog/real_catalogs.h"
#include "commands/cli.h"
#include "version/version.h"

namespace {

using commitlab::cli::Command;
using commitlab::cli::WriteText;

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"race", "N writers race for snapshot ids (S2 第 5 讲, scenario 1), on threads or simulated",
       commitlab::cli::RunRace},
      {"lab", "the source lectures' experiments (docs/lectures.md), narrated: lab paimon | iceberg | delta",
       commitlab::cli::RunLab},
      {"run", "run one scenario file and check its expectations", commitlab::cli::RunScenario},
      {"sweep", "benchmark retry policies: Brooker's experiment and a table-format sweep", commitlab::cli::RunSweep},
      {"replay", "re-run a recorded history and say where the new run departs from it", commitlab::cli::RunReplay},
      {"timeline", "draw a recorded history: one lane per writer, who won each race (HTML or SVG)",
       commitlab::cli::RunTimeline},
      {"step", "a scenario one scheduling point at a time: you pick who runs next, undo, save the path",
       commitlab::cli::RunStep},
      {"explore", "every distinct interleaving of a scenario: its outcomes, and the shortest run of each failure",
       commitlab::cli::RunExplore},
      {"shrink", "reduce a failing run to the smallest scenario that still shows its violation",
       commitlab::cli::RunShrink},
      {"explain", "say why a recorded run went as it did: who won each race, what a refusal met",
       commitlab::cli::RunExplain},
      {"writer", "one writer process on a table directory (start several; kill -9 one and restart it)",
       commitlab::cli::RunWriter},
      {"merge", "combine the JSON reports of a search's shards (--shard I/N) into the unsharded report",
       commitlab::cli::RunMerge},
      {"check", "read a table directory alone: is it sound, what is left over; or an imported history's findings",
       commitlab::cli::RunCheck},
      {"import", "a real Delta, Iceberg or Paimon table's commit log as a history, its findings, a scenario",
       commitlab::cli::RunImport},
      {"catalog",
       "Iceberg catalogs on real servers: serve the REST catalog, race writer processes through it or PostgreSQL",
       commitlab::cli::RunCatalog},
  };
  return commands;
}

void PrintUsage(std::FILE* out) {
  fmt::print(out,
             "commitlab: a lab for optimistic snapshot commits (Paimon, Iceberg, Delta).\n\n"
             "Usage: commitlab <command> [options]   (commitlab <command> --help for its options)\n"
             "       commitlab --version\n\n"
             "Commands:\n");
  for (const Command& c : Commands()) fmt::print(out, "  {:<8} {}\n", c.name, c.summary);
}

// Writes to stderr without throwing: the report of a failure must not fail in turn.
void Complain(std::string_view command, std::string_view why) {
  WriteText(stderr, fmt::format("commitlab {}: {}\n", command, why));
}

// The command running, for the out-of-memory message.
const char* g_command = "";

// Out of memory anywhere: in a simulated writer's fiber or a worker thread (an exception cannot
// cross either's entry) or inside mimalloc, which aborts when no handler is set (its C build cannot
// throw). Says so and ends with exit 2 at once, allocating nothing; whatever was being written is
// in a temporary file that was never renamed into place.
[[noreturn]] void OutOfMemory() {
  constexpr std::string_view kWhy = ": out of memory (is the run larger than this machine, or limited by ulimit -v?)\n";
  const std::string_view command = g_command;
  (void)!::write(STDERR_FILENO, "commitlab ", 10);
  (void)!::write(STDERR_FILENO, command.data(), command.size());
  (void)!::write(STDERR_FILENO, kWhy.data(), kWhy.size());
  ::_exit(commitlab::cli::kExitUsage);
}

// Help and --version are reports like any other: a full or closed stdout is exit 2, not exit 0.
int Flushed(std::string_view command) {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno != 0 ? errno : commitlab::cli::FirstWriteError();
    Complain(command,
             fmt::format("writing to standard output failed: {}", err != 0 ? std::strerror(err) : "the stream failed"));
    return commitlab::cli::kExitUsage;
  }
  return commitlab::cli::kExitOk;
}

// Runs a command and makes sure what it printed reached standard output: a report that could not
// be written (a full disk, a closed pipe) is exit 2 with the reason, never a short file and exit 0.
// Every error the environment raises past the command (no memory, no threads, a directory it may
// not read) is exit 2 with what failed, never an abort.
int RunCommand(const Command& c, const std::vector<std::string>& args) {
  int code = commitlab::cli::kExitUsage;
  g_command = c.name.c_str();
  try {
    code = c.run(args);
  } catch (const std::filesystem::filesystem_error& e) {
    Complain(c.name, e.what());
    return commitlab::cli::kExitUsage;
  } catch (const std::system_error& e) {
    if (std::ferror(stdout)) {  // fmt::print reports a failed write by throwing
      Complain(c.name, fmt::format("writing to standard output failed: {}", e.code().message()));
    } else {
      Complain(c.name, e.what());
    }
    return commitlab::cli::kExitUsage;
  } catch (const std::bad_alloc&) {
    Complain(c.name, "out of memory (is the run larger than this machine, or limited by ulimit -v?)");
    return commitlab::cli::kExitUsage;
  } catch (const std::exception& e) {
    Complain(c.name, fmt::format("stopped by an unexpected error: {}", e.what()));
    return commitlab::cli::kExitUsage;
  }
  return Flushed(c.name) == commitlab::cli::kExitOk ? code : commitlab::cli::kExitUsage;
}

// The library whose malloc this process calls, asked at run time (CMake's COMMITLAB_MALLOC
// chooses it): a sweep's speed depends on it, and a link that lost it would go unnoticed.
std::string AllocatorName() {
  Dl_info info;
  void* const malloc_symbol = dlsym(RTLD_DEFAULT, "malloc");
  if (malloc_symbol == nullptr || dladdr(malloc_symbol, &info) == 0 || info.dli_fname == nullptr) return "unknown";
  return fmt::format("malloc from {}", std::filesystem::path(info.dli_fname).filename().string());
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that went away (`commitlab race | head`) makes the next write fail with EPIPE, which
  // RunCommand reports (exit 2), rather than killing the process without a word.
  std::signal(SIGPIPE, SIG_IGN);
  std::set_new_handler(OutOfMemory);
  commitlab::cli::InstallRealCatalogs();  // scenario tables with catalog=jdbc or rest-server
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    PrintUsage(stderr);
    return commitlab::cli::kExitUsage;
  }
  try {
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      PrintUsage(stdout);
      return Flushed("--help");
    }
    if (args[0] == "--version" || args[0] == "-V") {
      fmt::print("commitlab {} ({})\nallocator: {}\n", commitlab::CommitlabVersion(), commitlab::CommitlabGitCommit(),
                 AllocatorName());
      return Flushed("--version");
    }
  } catch (const std::system_error& e) {  // fmt::print reports a failed write by throwing
    Complain(args[0], fmt::format("writing to standard output failed: {}", e.code().message()));
    return commitlab::cli::kExitUsage;
  }
  for (const Command& c : Commands()) {
    if (c.name == args[0]) return RunCommand(c, std::vector<std::string>(args.begin() + 1, args.end()));
  }
  std::string names;
  for (const Command& c : Commands()) names += (names.empty() ? "" : ", ") + c.name;
  fmt::print(stderr, "commitlab: unknown command '{}' (expected one of {})\n", args[0], names);
  return commitlab::cli::kExitUsage;
}
