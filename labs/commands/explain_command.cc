// `commitlab explain HISTORY`: why a recorded run went as it did (sim/explain.h), read from its
// history alone: who won each lost race, the wait's formula, what each refusal conflicted with.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "commands/cli.h"
#include "commitlab/sim/explain.h"
#include "output/history_file.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "explain";

}  // namespace

int RunExplain(const std::vector<std::string>& args) {
  po::options_description options("commitlab explain HISTORY_FILE [options]");
  std::string path;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("history", po::value(&path), "a history written with --trace");
  // clang-format on
  po::positional_options_description positional;
  positional.add("history", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nEach lost race: who won it, what the loser had built on, and its wait by the policy's formula.\n"
        "Each refusal: a Paimon file-deletion conflict as S2 第 5 讲's merge table with who removed the\n"
        "file; an LSM conflict's levels and key ranges; the commit an Iceberg or Delta refusal met.\n"
        "A give-up, an unknown outcome, and a lost update's stale read.\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (path.empty()) return UsageError(kCommand, "missing the history file to explain");
  Result<std::vector<sim::Json>> lines = ReadHistoryFile(path);
  if (!lines.ok()) return UsageError(kCommand, lines.status().message());
  Result<std::vector<sim::Explanation>> why = sim::ExplainHistory(*lines);
  if (!why.ok()) return UsageError(kCommand, HistoryWhere(path, why.status().message()));
  if (why->empty()) {
    fmt::print(
        "{}: nothing to explain: no lost race, refusal, give-up, crash, unknown outcome or invariant "
        "violation\n",
        path);
  } else {
    fmt::print("{}", sim::ExplanationText(*why));
  }
  return kExitOk;
}

}  // namespace commitlab::cli
