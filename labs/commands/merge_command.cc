// `commitlab merge SHARD.json...`: the reports of the N shards of one search (`--shard I/N` on
// `race --seeds`, `run --seeds`, `explore` and `sweep`) into the report the unsharded run prints
// with --json, field for field (shard_merge.h). Shards that do not belong together are refused
// by name, exit 2.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "commands/cli.h"
#include "commitlab/core/file_read.h"
#include "hunt/shard_merge.h"
#include "output/report_output.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "merge";
constexpr size_t kMaxShardBytes = size_t{1} << 30;  // a shard's --json holds every run's report

}  // namespace

int RunMerge(const std::vector<std::string>& args) {
  po::options_description options("commitlab merge SHARD.json... [options]");
  std::vector<std::string> paths;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("shards", po::value(&paths)->composing(), "the shards' reports (--shard I/N on race, run, explore, sweep)")
      ("text", "print the merged report as text (a hunt's summary, an exploration's outcomes, a sweep's rows) "
               "instead of JSON");
  // clang-format on
  po::positional_options_description positional;
  positional.add("shards", -1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nReads the N shard reports of one search, checks that they are shards 0..N-1 of the same\n"
        "command, flags, scenario and build, each once, and prints the report the unsharded run prints\n"
        "with --json. Exit 0 or 1 as that run would; 2 when a shard is missing, given twice or does not\n"
        "belong (the message names the file).\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (paths.empty()) return UsageError(kCommand, "missing the shard files to merge");
  std::vector<ShardFile> shards;
  for (const std::string& path : paths) {
    Result<std::string> text = ReadRegularFile(path, kMaxShardBytes);
    if (!text.ok()) {
      return UsageError(kCommand, text.status().code() == Code::kNotFound
                                      ? fmt::format("{}: no such file (did its shard run?)", path)
                                      : text.status().message());
    }
    sim::Json doc = sim::Json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded())
      return UsageError(kCommand, fmt::format("{}: not JSON (a shard that did not finish writing?)", path));
    shards.push_back({.path = path, .report = std::move(doc)});
  }
  if (Status st = CheckShardSet(&shards); !st.ok()) return UsageError(kCommand, st.message());
  const std::string kind = shards.front().report["shard"].value("kind", "");
  Result<sim::Json> merged =
      kind == "seeds"     ? MergeSeeds(shards)
      : kind == "explore" ? MergeExplore(shards)
      : kind == "sweep"   ? MergeSweep(shards)
                          : Status::InvalidArgument(fmt::format(
                                "{}: shard kind \"{}\" is not one of seeds, explore, sweep", shards.front().path, kind));
  if (!merged.ok()) return UsageError(kCommand, merged.status().message());
  if (vm.count("text")) {
    PrintMergedText(*merged, shards);
  } else {
    PrintJsonLine(*merged);
  }
  return merged->value("ok", false) ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
