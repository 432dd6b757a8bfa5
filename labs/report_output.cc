#include "report_output.h"

#include <fmt/format.h>

#include <utility>

#include "commitlab/scenarios/report_json.h"
#include "version.h"

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
  fmt::print("{}\n", j.dump(-1, ' ', false, sim::Json::error_handler_t::replace));
}

void PrintFiredFaults(const scenarios::RunReport& r) {
  for (const std::string& f : r.fired_faults) fmt::print("fault fired: {}\n", f);
  const int64_t more = r.fired_faults_total - static_cast<int64_t>(r.fired_faults.size());
  if (more > 0) fmt::print("fault fired: ... and {} more ({} in all; the first {} are listed)\n", more, r.fired_faults_total, r.fired_faults.size());
}

void PrintRunReport(std::string_view command, const sim::Json& settings, const scenarios::RunReport& r) {
  sim::Json out = ReportEnvelope(command, settings);
  out["runs"].push_back(scenarios::RunJson(r));
  out["ok"] = r.ok();
  PrintJsonLine(out);
}

}  // namespace commitlab::cli
