#include "output/report_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "commands/cli.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/sim/json_writer.h"
#include "version/version.h"

namespace commitlab::cli {

sim::Json Envelope(std::string_view format, int version, std::string_view command, sim::Json settings) {
  return {{"format", format},
          {"version", version},
          {"commitlab", {{"version", CommitlabVersion()}, {"git", CommitlabGitCommit()}}},
          {"command", command},
          {"settings", std::move(settings)}};
}

sim::Json ReportEnvelope(std::string_view command, sim::Json settings) {
  sim::Json out = Envelope(scenarios::kReportFormat, scenarios::kReportVersion, command, std::move(settings));
  out["runs"] = sim::Json::array();
  return out;
}

void PrintJsonLine(const sim::Json& j) {
  std::string line;
  sim::JsonWriter(&line).Value(j);  // nlohmann's bytes, without its serializer's cost per character
  line += '\n';
  WriteText(stdout, line);
}

void PrintFiredFaults(const scenarios::RunReport& r) {
  constexpr size_t kShown = 20;  // a rule that fires on every hit would bury the summary
  const size_t shown = std::min(kShown, r.fired_faults.size());
  for (size_t i = 0; i < shown; ++i) fmt::print("fault fired: {}\n", r.fired_faults[i]);
  const int64_t total = std::max(r.fired_faults_total, static_cast<int64_t>(r.fired_faults.size()));
  if (total > static_cast<int64_t>(shown))
    fmt::print("fault fired: ... and {} more ({} in all; --json lists the first {})\n",
               total - static_cast<int64_t>(shown), total, r.fired_faults.size());
}

void PrintRunReport(std::string_view command, const sim::Json& settings, const scenarios::RunReport& r) {
  // The envelope's members, then the run streamed (WriteRunJson): no document holds its snapshots.
  const sim::Json envelope = Envelope(scenarios::kReportFormat, scenarios::kReportVersion, command, settings);
  std::string line;
  sim::JsonWriter w(&line);
  w.BeginObject();
  for (const auto& [key, value] : envelope.items()) w.Key(key).Value(value);
  w.Name("runs").BeginArray();
  scenarios::WriteRunJson(r, w, [](std::string_view piece) { WriteText(stdout, piece); });
  w.EndArray().Bool("ok", r.ok()).EndObject().Byte('\n').Done();
  WriteText(stdout, line);
}

}  // namespace commitlab::cli
