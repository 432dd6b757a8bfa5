#include "report_output.h"

#include <fmt/format.h>

#include <utility>

#include "commitlab/scenarios/report_json.h"
#include "version.h"

namespace commitlab::cli {

sim::Json ReportEnvelope(std::string_view command, sim::Json settings) {
  return {{"format", scenarios::kReportFormat},
          {"version", scenarios::kReportVersion},
          {"commitlab", {{"version", CommitlabVersion()}, {"git", CommitlabGitCommit()}}},
          {"command", command},
          {"settings", std::move(settings)},
          {"runs", sim::Json::array()}};
}

void PrintJsonLine(const sim::Json& j) {
  fmt::print("{}\n", j.dump(-1, ' ', false, sim::Json::error_handler_t::replace));
}

void PrintRunReport(std::string_view command, const sim::Json& settings, const scenarios::RunReport& r) {
  sim::Json out = ReportEnvelope(command, settings);
  out["runs"].push_back(scenarios::RunJson(r));
  out["ok"] = r.ok();
  PrintJsonLine(out);
}

}  // namespace commitlab::cli
