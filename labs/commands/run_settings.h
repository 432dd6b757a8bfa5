// RunSettings: the line a run prints first (its seed, strategy and every drawn setting), and the
// arguments that re-create it, which a history header records.
#ifndef COMMITLAB_LABS_RUN_SETTINGS_H_
#define COMMITLAB_LABS_RUN_SETTINGS_H_

#include <string>
#include <utility>
#include <vector>

namespace commitlab::cli {

class RunSettings {
 public:
  // `args` re-create the run: they exclude --trace and anything naming a path.
  explicit RunSettings(std::vector<std::string> args) : args_(std::move(args)) {}

  RunSettings& Add(std::string key, std::string value) {
    settings_.emplace_back(std::move(key), std::move(value));
    return *this;
  }
  // "seed=7 sched=random writers=2 ..."
  std::string Line() const;
  const std::vector<std::string>& args() const { return args_; }

 private:
  std::vector<std::string> args_;
  std::vector<std::pair<std::string, std::string>> settings_;
};

// `arg` as a POSIX shell reads it back: as is when it holds only safe characters, else in single
// quotes. For the commands the CLI prints to copy and paste.
std::string ShellQuote(const std::string& arg);

// Removes `--flag VALUE` and `--flag=VALUE` for each of `valued` (e.g. --trace, --dir), and each
// of `switches`, which take no value (e.g. --json).
std::vector<std::string> WithoutFlags(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                                      const std::vector<std::string>& switches = {});

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_RUN_SETTINGS_H_
