// Shared pieces of the commitlab CLI: exit codes, the subcommand table, option parsing helpers.
#ifndef COMMITLAB_LABS_CLI_H_
#define COMMITLAB_LABS_CLI_H_

#include <boost/program_options.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"

namespace commitlab::cli {

inline constexpr int kExitOk = 0;      // ran, every invariant and expectation held
inline constexpr int kExitFailed = 1;  // ran, something it checks did not hold
inline constexpr int kExitUsage = 2;   // bad flag, bad input file (nothing ran), or an output that cannot be written

struct Command {
  std::string name;
  std::string summary;
  std::function<int(const std::vector<std::string>& args)> run;
};

// Parses `args` against `options` (and positional `positional`), printing
// "commitlab NAME: <why>" and returning false on a usage error.
bool ParseArgs(std::string_view command, const std::vector<std::string>& args,
               const boost::program_options::options_description& options,
               const boost::program_options::positional_options_description* positional,
               boost::program_options::variables_map* vm);

// Writes `text` to `out` without throwing: what writers print from their fibers must not throw
// (an exception cannot cross a fiber's stack). A failed write shows in ferror(out), which main
// checks when the command returns, with the reason FirstWriteError keeps.
void WriteText(std::FILE* out, std::string_view text);

// The errno of the first WriteText that failed, 0 if none did: ferror keeps only that a write failed,
// and errno is overwritten long before main looks.
int FirstWriteError();

// A fresh directory for scratch tables, named PREFIX-<pid>-<n>: under results/tmp when run from
// the project (ignored by git), else under the system's temp directory ($TMPDIR, else /tmp). Not
// created. InvalidArgument when $TMPDIR names no directory.
Result<std::string> ScratchDir(std::string_view prefix);

// Prints "commitlab NAME: message" and a hint to stderr; returns kExitUsage.
int UsageError(std::string_view command, std::string_view message);

int RunRace(const std::vector<std::string>& args);
int RunReplay(const std::vector<std::string>& args);
// timeline_command.cc
int RunTimeline(const std::vector<std::string>& args);
int RunExplain(const std::vector<std::string>& args);   // explain_command.cc
int RunStep(const std::vector<std::string>& args);      // step_command.cc
int RunScenario(const std::vector<std::string>& args);  // run_command.cc
int RunLab(const std::vector<std::string>& args);       // lab_command.cc
int RunSweep(const std::vector<std::string>& args);     // sweep_command.cc
int RunWriter(const std::vector<std::string>& args);    // writer_command.cc
int RunCheck(const std::vector<std::string>& args);     // check_command.cc
int RunExplore(const std::vector<std::string>& args);   // explore_command.cc
int RunShrink(const std::vector<std::string>& args);    // shrink_command.cc
int RunCatalog(const std::vector<std::string>& args);   // catalog_command.cc
int RunMerge(const std::vector<std::string>& args);     // merge_command.cc
int RunImport(const std::vector<std::string>& args);    // import_command.cc

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_CLI_H_
