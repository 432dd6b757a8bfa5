// `commitlab check D`: reads a table directory on its own and says whether it is sound
// (sim/table_dir_check.h); lists leftovers and, with --clean-orphans, removes them.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>

#include "commands/check_history.h"
#include "commands/cli.h"
#include "commitlab/core/paimon/live_writers.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/table_dir_check.h"
#include "output/report_output.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
constexpr std::string_view kCommand = "check";
// Paimon's OrphanFilesClean and Iceberg's DeleteOrphanFiles keep files younger than a day by
// default: a live writer's files are orphans until its snapshot lands. commitlab's own writers
// announce themselves (live_writers.h), so their files in flight are kept at any --older-than.
constexpr std::string_view kDefaultOlderThan = "1d";

// What --clean-orphans did, and the live writers it kept files for.
struct Cleaning {
  LiveWriters live;
  sim::CleanResult result;
};

std::string PerUser(const std::map<std::string, int64_t>& per_user) {
  std::string out;
  for (const auto& [user, n] : per_user) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", user, n);
  return "{" + out + "}";
}

std::string LeftoverCounts(const std::vector<sim::Leftover>& leftovers) {
  std::map<std::string_view, int> counts;
  for (const sim::Leftover& l : leftovers) ++counts[sim::LeftoverKindName(l.kind)];
  std::string out;
  for (const auto& [kind, n] : counts)
    out += fmt::format("{}{} {}{}", out.empty() ? "" : ", ", n, kind, n == 1 ? "" : "s");
  return out;
}

std::string Age(int64_t micros) {
  const double s = static_cast<double>(micros) / 1e6;
  if (s < 120) return fmt::format("{:.1f} s old", s);
  if (s < 2 * 3600) return fmt::format("{:.0f} min old", s / 60);
  return fmt::format("{:.1f} h old", s / 3600);
}

void PrintText(const sim::TableDirReport& r, const std::optional<Cleaning>& cleaning, std::string_view older_than) {
  fmt::print("table {}: {}\n", r.root, r.sound() ? "sound" : fmt::format("UNSOUND, {} problem(s)", r.problems.size()));
  for (const sim::TableDirProblem& p : r.problems) fmt::print("  {}: {}\n", p.kind, p.message);
  fmt::print("snapshots: {}; LATEST hint: {}\n",
             r.chain.empty()
                 ? "none"
                 : fmt::format("{}..{} ({} readable)", r.chain.front().id, r.latest_snapshot(), r.chain.size()),
             r.latest_hint ? std::to_string(*r.latest_hint) : "none");
  fmt::print("snapshots per commit user: {}\n", PerUser(r.per_user()));
  fmt::print("live data files: {}\n", r.live_files);
  if (r.leftovers.empty()) {
    fmt::print("leftovers: none\n");
  } else {
    fmt::print("leftovers: {} ({})\n", r.leftovers.size(), LeftoverCounts(r.leftovers));
    for (const sim::Leftover& l : r.leftovers)
      fmt::print("  {}  {}, {}\n", l.path, sim::LeftoverKindName(l.kind), Age(l.age_micros));
  }
  if (cleaning) {
    const sim::CleanResult& c = cleaning->result;
    fmt::print("removed {} leftover(s) older than {}; kept {} younger", c.removed.size(), older_than, c.kept_young);
    if (cleaning->live.live > 0 || c.kept_in_flight > 0) {
      fmt::print("; kept {} that {} live writer(s) may still publish", c.kept_in_flight, cleaning->live.live);
    }
    fmt::print("\n");
    for (const std::string& e : c.errors) fmt::print("  could not remove {}\n", e);
  }
}

sim::Json ReportJson(const sim::TableDirReport& r, const std::optional<Cleaning>& cleaning, sim::Json settings) {
  sim::Json out = Envelope("commitlab-check", 1, kCommand, std::move(settings));
  out["root"] = r.root;
  out["sound"] = r.sound();
  sim::Json problems = sim::Json::array();
  for (const sim::TableDirProblem& p : r.problems)
    problems.push_back({{"kind", p.kind}, {"file", p.file}, {"message", p.message}});
  out["problems"] = std::move(problems);
  out["latest_snapshot"] = r.latest_snapshot();
  out["latest_hint"] = r.latest_hint ? sim::Json(*r.latest_hint) : sim::Json(nullptr);
  sim::Json snapshots = sim::Json::array();
  for (const Snapshot& s : r.chain) {
    snapshots.push_back({{"id", s.id},
                         {"parent", s.parent_id},
                         {"user", s.commit_user},
                         {"identifier", s.commit_identifier},
                         {"kind", CommitKindName(s.kind)}});
  }
  out["snapshots"] = std::move(snapshots);
  out["per_user"] = r.per_user();
  out["live_files"] = r.live_files;
  sim::Json leftovers = sim::Json::array();
  for (const sim::Leftover& l : r.leftovers)
    leftovers.push_back({{"path", l.path}, {"kind", sim::LeftoverKindName(l.kind)}, {"age_micros", l.age_micros}});
  out["leftovers"] = std::move(leftovers);
  if (cleaning) {
    out["removed"] = cleaning->result.removed;
    out["kept_young"] = cleaning->result.kept_young;
    out["kept_in_flight"] = cleaning->result.kept_in_flight;
    out["live_writers"] = cleaning->live.live;
    out["remove_errors"] = cleaning->result.errors;
  }
  return out;
}

}  // namespace

int RunCheck(const std::vector<std::string>& args) {
  po::options_description options(
      "commitlab check DIR [--json] [--clean-orphans [--older-than T]]\n"
      "commitlab check HISTORY.jsonl [--json]\n\n"
      "Reads the table in DIR on its own and verifies what files can show: snapshot ids contiguous\n"
      "from 1, each parent its predecessor, every snapshot and manifest readable, every live data\n"
      "file present and intact, each (user, identifier, kind) committed at most once, the LATEST hint\n"
      "not ahead. Lists leftovers: temp files and unreferenced manifests and data files (orphans).\n"
      "Exit 0: sound; 1: unsound (each problem names its file); 2: DIR is not a readable table.\n"
      "Given a history file instead: an imported one (commitlab import -o) is judged by its findings, a\n"
      "run's by its verdicts; exit 1 when a finding is a problem or a verdict failed.\n\nOptions");
  std::string dir, older_than = std::string(kDefaultOlderThan);
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("dir", po::value(&dir), "the table directory (or give it as the first argument)")
      ("json", "print the report as one JSON object (docs/check.schema.json)")
      ("clean-orphans", "remove the leftovers older than --older-than (only from a sound table)")
      ("older-than", po::value(&older_than)->default_value(older_than),
       "with --clean-orphans: keep leftovers younger than this (e.g. 0s, 10min, 1h, 1d). A live writer's files look like leftovers until its commit lands: those of commitlab's writers (announced in DIR/lock/) are kept at any age");
  // clang-format on
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (dir.empty()) return UsageError(kCommand, "give the table directory: commitlab check DIR");
  if (IsHistoryPath(dir)) {
    if (vm.count("clean-orphans") || !vm["older-than"].defaulted())
      return UsageError(kCommand, "--clean-orphans and --older-than clean a table directory, not a history");
    return CheckHistory(dir, vm.count("json") > 0);
  }
  if (!vm["older-than"].defaulted() && !vm.count("clean-orphans"))
    return UsageError(kCommand, "--older-than only means something with --clean-orphans");
  Result<int64_t> older_than_micros = ParseDurationMicros(older_than);
  if (!older_than_micros.ok())
    return UsageError(kCommand, fmt::format("--older-than: {}", older_than_micros.status().message()));

  // The live writers first, the table after: a writer that had ended by the look published all it
  // ever will before the table is read, and one that joins later writes only younger files.
  std::optional<LiveWriters> live;
  if (vm.count("clean-orphans")) {
    Result<LiveWriters> found = FindLiveWriters((std::filesystem::path(dir) / "lock").string());
    if (!found.ok()) {
      fmt::print(stderr, "commitlab check: {}\n", found.status().message());
      return kExitUsage;
    }
    live = *found;
  }
  Result<sim::TableDirReport> report = sim::CheckTableDir(dir);
  if (!report.ok()) {
    fmt::print(stderr, "commitlab check: {}\n", report.status().message());
    return kExitUsage;
  }
  std::optional<Cleaning> cleaning;
  if (live) {
    if (!report->sound()) {
      fmt::print(stderr,
                 "commitlab check: not removing leftovers from an unsound table: the files of a snapshot that "
                 "cannot be read would look unreferenced\n");
    } else {
      cleaning = Cleaning{*live, sim::CleanLeftovers(*report, {.older_than_micros = *older_than_micros,
                                                               .in_flight_cutoff_micros = live->cutoff_micros})};
    }
  }
  if (vm.count("json")) {
    PrintJsonLine(
        ReportJson(*report, cleaning,
                   {{"dir", dir}, {"clean_orphans", vm.count("clean-orphans") > 0}, {"older_than", older_than}}));
  } else {
    PrintText(*report, cleaning, older_than);
  }
  if (!report->sound() || (cleaning && !cleaning->result.errors.empty())) return kExitFailed;
  return kExitOk;
}

}  // namespace commitlab::cli
