#include "commands/check_history.h"

#include <fmt/format.h>

#include <filesystem>

#include "commands/cli.h"
#include "commitlab/sim/history_fields.h"
#include "output/history_file.h"
#include "output/report_output.h"

namespace commitlab::cli {
namespace {

constexpr std::string_view kCommand = "check";

struct Verdict {
  std::string what;  // "imported from ..." or "a `commitlab run ...` history"
  sim::Json findings = sim::Json::array();
  int64_t problems = 0;
  int64_t notes = 0;
  std::vector<std::string> failures;  // a run's: violations, run errors, failed expectations
  bool footer = false;
};

std::string Versions(const sim::Json& commits) {
  std::string out;
  if (!commits.is_array()) return out;
  for (const sim::Json& v : commits) out += (out.empty() ? "" : ", ") + v.dump();
  return out;
}

void Imported(const std::vector<sim::Json>& lines, Verdict* v) {
  const sim::Json& h = lines.front();
  const sim::Json source = h.contains("source") && h["source"].is_object() ? h["source"] : sim::Json::object();
  const sim::Json versions = source.value("versions", sim::Json());
  v->what = fmt::format("imported from {} ({}){}", sim::StringField(source, "log"), sim::StringField(source, "format"),
                        versions.is_object() ? fmt::format(", versions {}..{}", versions.value("first", int64_t{0}),
                                                           versions.value("last", int64_t{0}))
                                             : "");
  for (const sim::Json& e : lines) {
    const std::string type = sim::StringField(e, "type");
    v->footer = v->footer || type == "footer";
    if (type != "finding") continue;
    const bool problem = sim::StringField(e, "severity") == "problem";
    ++(problem ? v->problems : v->notes);
    v->findings.push_back({{"kind", sim::StringField(e, "kind")},
                           {"severity", problem ? "problem" : "note"},
                           {"snapshot", sim::IntField(e, "snapshot")},
                           {"commits", e.value("commits", sim::Json::array())},
                           {"writer", sim::StringField(e, "writer")},
                           {"message", sim::StringField(e, "message")}});
  }
}

void Run(const std::vector<sim::Json>& lines, Verdict* v) {
  const sim::Json& h = lines.front();
  std::string argv;
  if (h.contains("argv") && h["argv"].is_array())
    for (const sim::Json& a : h["argv"]) argv += " " + (a.is_string() ? a.get<std::string>() : a.dump());
  v->what = fmt::format("a `commitlab {}{}` history", sim::StringField(h, "command"), argv);
  const sim::Json& last = lines.back();
  if (sim::StringField(last, "type") != "footer") return;
  v->footer = true;
  const sim::Json verdicts = last.value("verdicts", sim::Json::object());
  for (const sim::Json& x : verdicts.value("violations", sim::Json::array()))
    if (!x.value("expected", false))
      v->failures.push_back(
          fmt::format("violation {}: {}", sim::StringField(x, "kind"), sim::StringField(x, "message")));
  for (const sim::Json& x : verdicts.value("run_errors", sim::Json::array()))
    v->failures.push_back(fmt::format("run error: {}", x.is_string() ? x.get<std::string>() : x.dump()));
  const sim::Json expectations = verdicts.value("expectations", sim::Json::object());
  for (const sim::Json& x : expectations.value("results", sim::Json::array()))
    if (!x.value("passed", true))
      v->failures.push_back(fmt::format("expectation failed at line {}: {} (saw {})", sim::IntField(x, "line"),
                                        sim::StringField(x, "text"), sim::StringField(x, "seen")));
  if (!verdicts.value("ok", true) && v->failures.empty()) v->failures.push_back("the run's verdict is not ok");
}

}  // namespace

bool IsHistoryPath(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

int CheckHistory(const std::string& path, bool json) {
  Result<std::vector<sim::Json>> lines = ReadHistoryFile(path);
  if (!lines.ok()) return UsageError(kCommand, lines.status().message());
  if (sim::StringField(lines->front(), "type") != "header")
    return UsageError(kCommand, fmt::format("{}:1: not a commitlab history (no header)", path));
  const bool imported = sim::StringField(lines->front(), "command") == "import";
  Verdict v;
  try {
    if (imported) {
      Imported(*lines, &v);
    } else {
      Run(*lines, &v);
    }
  } catch (const nlohmann::json::exception& e) {
    return UsageError(kCommand, fmt::format("{}: {}", path, e.what()));
  }
  const bool sound = v.problems == 0 && v.failures.empty() && v.footer;
  if (json) {
    sim::Json out = Envelope("commitlab-check-history", 1, kCommand, {{"history", path}});
    out["history"] = path;
    out["imported"] = imported;
    out["what"] = v.what;
    out["complete"] = v.footer;
    out["sound"] = sound;
    out["problems"] = v.problems;
    out["notes"] = v.notes;
    out["findings"] = v.findings;
    out["failures"] = v.failures;
    PrintJsonLine(out);
  } else {
    fmt::print("history {}: {}\n", path, v.what);
    if (!v.footer) fmt::print("  the history has no footer: it was cut, or its run did not finish\n");
    if (imported) {
      fmt::print("findings: {} problem(s), {} note(s)\n", v.problems, v.notes);
      for (const sim::Json& f : v.findings)
        fmt::print("  {} {} at {} (commits {}): {}\n", f["severity"] == "problem" ? "PROBLEM" : "note",
                   f["kind"].get<std::string>(), f["snapshot"].dump(), Versions(f["commits"]),
                   f["message"].get<std::string>());
    } else {
      fmt::print("verdict: {}\n", v.failures.empty() ? "ok" : "FAILED");
      for (const std::string& f : v.failures) fmt::print("  {}\n", f);
    }
  }
  return sound ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
