#include "commitlab/scenarios/race.h"

#include <fmt/format.h>

#include "commitlab/scenarios/parser.h"
#include "commitlab/sim/writer_name.h"

namespace commitlab::scenarios {
namespace {

// A scenario string literal: the lexer knows \" and \\ inside quotes.
std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Result<std::string> RaceScenarioText(const RaceSpec& spec) {
  if (spec.writers < 1 || spec.writers > kMaxRaceWriters)
    return Status::InvalidArgument(fmt::format("--writers {} is out of range 1..{}", spec.writers, kMaxRaceWriters));
  if (spec.commits < 1 || spec.commits > kMaxRaceCommits)
    return Status::InvalidArgument(fmt::format("--commits {} is out of range 1..{}", spec.commits, kMaxRaceCommits));
  if (int64_t{spec.writers} * spec.commits > kMaxRaceTotalCommits) {
    return Status::InvalidArgument(fmt::format("--writers {} x --commits {} is {} commits; at most {} in one race",
                                               spec.writers, spec.commits, int64_t{spec.writers} * spec.commits,
                                               kMaxRaceTotalCommits));
  }
  std::string text = fmt::format(
      "# Built by `commitlab race`: S2 第 5 讲's scenario 1 (docs/lectures.md#s2-5-race), {} writers x {} commits.\n"
      "title \"Race: {} writers x {} commits\"\n\n",
      spec.writers, spec.commits, spec.writers, spec.commits);
  if (!spec.object_store.empty()) text += fmt::format("store object:{}\n", spec.object_store);
  text += "table name=race_log protocol=paimon\n";
  for (int i = 0; i < spec.writers; ++i) text += fmt::format("writer name={}\n", sim::WriterName(i));
  text += fmt::format("retry {}\n", Quoted(spec.policy));
  text += fmt::format("idempotency-check {}\n", spec.idempotency_check ? "on" : "off");
  if (!spec.latency.empty()) text += fmt::format("latency {}\n", Quoted(spec.latency));
  for (const std::string& f : spec.faults) text += fmt::format("fault {}\n", Quoted(f));
  text += "\n";
  for (int i = 0; i < spec.writers; ++i)
    text += fmt::format("repeat {}: {}: write rows=1; commit\n", spec.commits, sim::WriterName(i));
  return text;
}

Result<Scenario> RaceScenario(const RaceSpec& spec) {
  COMMITLAB_ASSIGN_OR_RETURN(std::string text, RaceScenarioText(spec));
  return ParseScenario(text, kRaceFileName, {.max_steps = static_cast<size_t>(2 * kMaxRaceTotalCommits)});
}

}  // namespace commitlab::scenarios
