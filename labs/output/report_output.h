// The one report `race`, `run` and `lab` print with --json (docs/report.schema.json): an
// envelope with the format and version, the build, the command and its settings, and the runs
// (scenarios::RunJson), then what the command adds (a seed range's distribution, a lab's verdicts).
#ifndef COMMITLAB_LABS_REPORT_OUTPUT_H_
#define COMMITLAB_LABS_REPORT_OUTPUT_H_

#include <string_view>

#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/history.h"

namespace commitlab::cli {

// {"format":FORMAT,"version":VERSION,"commitlab":{"version":..,"git":..},"command":..,"settings":..}:
// the head of every JSON document the CLI prints.
sim::Json Envelope(std::string_view format, int version, std::string_view command, sim::Json settings);
// {"format":"commitlab-report","version":1,"commitlab":{...},"command":..,"settings":..,"runs":[]}
sim::Json ReportEnvelope(std::string_view command, sim::Json settings);
// One line of JSON on stdout.
void PrintJsonLine(const sim::Json& j);
// The report of one run (`run`, `race`).
void PrintRunReport(std::string_view command, const sim::Json& settings, const scenarios::RunReport& r);
// The text form's "fault fired: ..." lines, and how many more fired than the report lists.
void PrintFiredFaults(const scenarios::RunReport& r);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_REPORT_OUTPUT_H_
