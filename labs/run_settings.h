// RunSettings: what a run prints first (its seed, strategy and every drawn setting) and what a
// trace header records so that `commitlab replay` can re-run exactly the same configuration.
#ifndef COMMITLAB_LABS_RUN_SETTINGS_H_
#define COMMITLAB_LABS_RUN_SETTINGS_H_

#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/trace.h"

namespace commitlab::cli {

class RunSettings {
 public:
  // `command` and `args` re-create the run: args exclude --trace and anything naming a path.
  RunSettings(std::string command, std::vector<std::string> args) : command_(std::move(command)), args_(std::move(args)) {}

  RunSettings& Add(std::string key, std::string value) {
    settings_.emplace_back(std::move(key), std::move(value));
    return *this;
  }
  // "seed=7 sched=random writers=2 ..."
  std::string Line() const;
  // {"type":"header","command":"race","argv":[...],"seed":"7",...}
  sim::TraceFields HeaderFields() const;

 private:
  std::string command_;
  std::vector<std::string> args_;
  std::vector<std::pair<std::string, std::string>> settings_;
};

// A run's --trace output: the file and the writer on it (no writer when no path was given).
struct TraceOutput {
  std::ofstream file;
  std::unique_ptr<sim::TraceWriter> writer;
};
// Opens `path` (truncated) and writes the settings' header. Error: "--trace: cannot write PATH".
Status OpenTrace(const std::string& path, const RunSettings& settings, TraceOutput* out);

// Removes `--flag VALUE` and `--flag=VALUE` for each of `valued` (e.g. --trace, --dir), and each
// of `switches`, which take no value (e.g. --json).
std::vector<std::string> WithoutFlags(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                                      const std::vector<std::string>& switches = {});

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_RUN_SETTINGS_H_
