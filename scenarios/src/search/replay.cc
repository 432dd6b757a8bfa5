#include "commitlab/scenarios/replay.h"

#include <fmt/format.h>

#include <deque>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/sim/latency.h"
#include "search/replay_threads.h"

namespace commitlab::scenarios {
namespace {

using sim::Json;

Status Bad(std::string_view what) { return Status::InvalidArgument(fmt::format("line 1: {}", what)); }

// A member of the wrong JSON type that a check above missed: nlohmann throws, the reader says so.
Status Malformed(const std::exception& e) { return Bad(fmt::format("the header is malformed ({})", e.what())); }

}  // namespace

Status CheckHistoryHeader(const Json& h) try {
  auto string_member = [&h](const char* key) {
    const auto it = h.find(key);
    return it != h.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (!h.is_object() || string_member("type") != "header" || string_member("format") != sim::kHistoryFormat)
    return Bad(fmt::format("not a commitlab history (no {} header)", sim::kHistoryFormat));
  if (!h.contains("version") || !h["version"].is_number_integer() || h["version"] != sim::kHistoryVersion) {
    return Bad(fmt::format("history format version {} is not one this build reads ({})",
                           h.contains("version") ? h["version"].dump() : "(none)", sim::kHistoryVersion));
  }
  if (!h.contains("command") || !h["command"].is_string()) return Bad("the header has no command");
  if (h["command"] == "import")
    return Bad(
        "an imported history records a table's log, not a run, so there is nothing to replay: `commitlab "
        "import PATH --scenario K` writes a scenario of its last K commits to run and explore");
  if (!h.contains("settings") || !h["settings"].is_object()) return Bad("the header has no settings object");
  if (!h.contains("plan") || !h["plan"].is_object()) return Bad("the header has no plan object");
  const auto s = h.find("scenario");
  if (s == h.end() || !s->is_object() || !s->contains("text") || !(*s)["text"].is_string() || !s->contains("file") ||
      !(*s)["file"].is_string())
    return Bad("the header's scenario has no text");
  return Status::OK();
} catch (const Json::exception& e) {
  return Malformed(e);
}

Result<RunOptions> RecordedRunOptions(const Json& header) try {
  const Json& settings = header["settings"];
  RunOptions o;
  auto bad = [](std::string_view key) { return Bad(fmt::format("settings.{} has the wrong type", key)); };
  auto optional = [&settings](const char* key) -> const Json* {
    const auto it = settings.find(key);
    return it == settings.end() || it->is_null() ? nullptr : &*it;
  };
  if (const Json* seed = optional("seed")) {
    if (!seed->is_number_unsigned()) return bad("seed");
    o.seed = seed->get<uint64_t>();
  }
  if (const Json* sched = optional("sched")) {
    if (!sched->is_string()) return bad("sched");
    o.sched = sched->get<std::string>();
  }
  if (const Json* schedule = optional("schedule")) {
    if (!schedule->is_string()) return bad("schedule");
    o.schedule = schedule->get<std::string>();
  }
  if (const Json* untimed = optional("untimed")) {
    if (!untimed->is_boolean()) return bad("untimed");
    o.untimed = untimed->get<bool>();
  }
  for (auto [key, out] : {std::pair("max_steps", &o.max_steps), std::pair("max_virtual_micros", &o.max_virtual_micros),
                          std::pair("max_wall_micros", &o.max_wall_micros)}) {
    if (const Json* budget = optional(key)) {
      if (!budget->is_number_integer() || budget->get<int64_t>() < 0) return bad(key);
      *out = budget->get<int64_t>();
    }
  }
  if (const Json* maybe = optional("maybe_faults")) {
    if (!maybe->is_string()) return bad("maybe_faults");
    o.choose_fault = MaybeFaultChooser(maybe->get<std::string>());
  }
  // `run` records its --latency and --fault overrides; a race's are in its scenario text.
  if (header["command"] == "run") {
    if (const Json* latency = optional("latency")) {
      if (!latency->is_string()) return bad("latency");
      Result<sim::LatencyModel> m = sim::ParseLatencyModel(latency->get<std::string>());
      if (!m.ok()) return Bad(fmt::format("settings.latency: {}", m.status().message()));
      o.latency = *m;
    }
    if (const Json* faults = optional("faults")) {
      if (!faults->is_array()) return bad("faults");
      for (const Json& f : *faults) {
        if (!f.is_string()) return bad("faults");
        Result<sim::FaultRule> rule = sim::ParseFaultRule(f.get<std::string>());
        if (!rule.ok()) return Bad(fmt::format("settings.faults: {}", rule.status().message()));
        o.faults.push_back(*rule);
      }
    }
  }
  return o;
} catch (const Json::exception& e) {
  return Malformed(e);
}

Result<Scenario> RecordedScenario(const Json& header, const std::optional<std::string>& text) try {
  const Json& s = header["scenario"];
  // A generated race may hold more steps than a file a person writes (race's largest: 1,000,000
  // commits of two steps each), but no more: a history is input like any other.
  Result<Scenario> parsed = ParseScenario(text ? *text : s["text"].get<std::string>(), s["file"].get<std::string>(),
                                          {.max_steps = 4'000'000});
  if (!parsed.ok()) return Status::InvalidArgument(fmt::format("the recorded scenario: {}", parsed.status().message()));
  return parsed;
} catch (const Json::exception& e) {
  return Malformed(e);
}

namespace {

// What a replay runs: the recorded options and scenario, and the command as recorded.
struct Recorded {
  RunOptions run;
  Scenario scenario;
  std::string command = {};  // "commitlab run scenarios/x.scn --seed 5"
  bool threads = false;
};

Result<Recorded> ReadRecorded(const Json& header, const ReplayOptions& options) {
  COMMITLAB_RETURN_IF_ERROR(CheckHistoryHeader(header));
  COMMITLAB_ASSIGN_OR_RETURN(RunOptions run, RecordedRunOptions(header));
  COMMITLAB_ASSIGN_OR_RETURN(Scenario scenario, RecordedScenario(header, options.scenario_text));
  Recorded r{.run = std::move(run), .scenario = std::move(scenario)};
  r.command = "commitlab " + header["command"].get<std::string>();
  if (header.contains("argv") && header["argv"].is_array())
    for (const Json& a : header["argv"])
      if (a.is_string()) r.command += " " + a.get<std::string>();
  r.threads = header["plan"].value("sched", "") == "free";
  return r;
}

Status CannotRunAgain(const Status& st) {
  return Status::InvalidArgument(fmt::format("the recorded run cannot run again: {}", st.message()));
}

}  // namespace

Result<ReplayOutcome> ReplayHistory(const std::vector<Json>& lines, const ReplayOptions& options) try {
  if (lines.empty()) return Bad("empty history");
  const Json& header = lines.front();
  Result<Recorded> rec = ReadRecorded(header, options);
  if (!rec.ok()) return rec.status();
  RunOptions& run = rec->run;

  ReplayOutcome out;
  out.command = rec->command;
  out.recorded.assign(lines.begin() + 1, lines.end());
  out.threads = rec->threads;

  NullEventSink quiet;
  sim::History history;
  run.events = &quiet;
  run.history = &history;
  std::unique_ptr<internal::ThreadReplay> constraints;
  if (out.threads) {
    COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<internal::ThreadReplay> made,
                               internal::ThreadReplay::Make(rec->scenario, header, out.recorded));
    constraints = std::move(made);
    run.sched = "random";  // the constraints decide what matters; the rest may interleave any way
    run.latency = sim::LatencyModel{};
    run.effect_gate = constraints.get();
  }
  Result<RunReport> report = RunScenario(rec->scenario, run);
  if (!report.ok() && constraints != nullptr && !constraints->first_problem().empty()) {
    out.threads_problem = constraints->first_problem();  // the deadlock the constraints made
    return out;
  }
  if (!report.ok()) return CannotRunAgain(report.status());
  history.Footer(HistoryFooter(*report));
  for (const std::string& line : history.lines()) out.replayed.push_back(Json::parse(line));
  if (constraints != nullptr) {
    out.threads_problem = constraints->Problem(out.replayed);
  } else {
    out.difference = sim::FirstDifference(out.recorded, out.replayed);
  }
  return out;
} catch (const Json::exception& e) {
  return Malformed(e);
}

namespace {

// Compares each line of the new run, as the history writes it, with the next recorded one. Past
// the first difference (or an unreadable recorded line) it only counts.
class LineComparer {
 public:
  LineComparer(RecordedLines* recorded, size_t context) : recorded_(recorded), context_(context) {}

  void OnReplayed(std::string_view line) {
    if (stopped()) return;
    Result<bool> more = recorded_->Next(&recorded_line_);
    if (!more.ok()) {
      error_ = more.status();
      return;
    }
    if (!*more) {
      Differ(std::nullopt, Json::parse(line));
      return;
    }
    if (recorded_line_ != line) {  // not the same bytes: the same value? (a history edited by hand)
      Result<Json> recorded = sim::ParseHistoryLine(recorded_line_, recorded_->line_number());
      if (!recorded.ok()) {
        error_ = recorded.status();
        return;
      }
      Json replayed = Json::parse(line);
      if (!sim::SameHistoryValue(*recorded, replayed)) {
        Differ(std::move(*recorded), std::move(replayed));
        return;
      }
    }
    last_was_footer_ = line.starts_with(R"({"type":"footer")");
    Remember();
    ++index_;
  }

  // After the run: a recorded line the run did not write is a difference too. Every recorded line
  // is read, so that one that is not JSON is reported wherever it is.
  Status Finish() {
    while (error_.ok()) {
      Result<bool> more = recorded_->Next(&recorded_line_);
      if (!more.ok()) return more.status();
      if (!*more) break;
      Result<Json> recorded = sim::ParseHistoryLine(recorded_line_, recorded_->line_number());
      if (!recorded.ok()) return recorded.status();
      if (!difference_) Differ(std::move(*recorded), std::nullopt);
    }
    return error_;
  }

  StreamedReplay Take(std::string command) && {
    StreamedReplay out{.command = std::move(command), .events = index_ - (last_was_footer_ ? 1 : 0)};
    out.difference = std::move(difference_);
    if (out.difference) {
      for (const std::string& l : context_lines_) out.before.push_back(Json::parse(l));
    }
    return out;
  }

 private:
  bool stopped() const { return difference_.has_value() || !error_.ok(); }
  void Differ(std::optional<Json> recorded, std::optional<Json> replayed) {
    difference_ =
        sim::HistoryDifference{.index = index_, .recorded = std::move(recorded), .replayed = std::move(replayed)};
  }
  // Keeps the last `context_` recorded lines, for the lines before a difference.
  void Remember() {
    if (context_ == 0) return;
    if (context_lines_.size() == context_) context_lines_.pop_front();
    context_lines_.push_back(recorded_line_);
  }

  RecordedLines* const recorded_;
  const size_t context_;
  std::string recorded_line_;
  std::deque<std::string> context_lines_;
  size_t index_ = 0;  // lines after the header compared so far
  bool last_was_footer_ = false;
  std::optional<sim::HistoryDifference> difference_;
  Status error_;
};

}  // namespace

Result<StreamedReplay> ReplayHistoryStreamed(const Json& header, RecordedLines* recorded, const ReplayOptions& options,
                                             size_t context) try {
  Result<Recorded> rec = ReadRecorded(header, options);
  if (!rec.ok()) return rec.status();
  if (rec->threads) return Bad("a history recorded on OS threads is replayed whole (ReplayHistory)");
  LineComparer compare(recorded, context);
  NullEventSink quiet;
  sim::History history([&compare](std::string_view line) { compare.OnReplayed(line); });
  rec->run.events = &quiet;
  rec->run.history = &history;
  Result<RunReport> report = RunScenario(rec->scenario, rec->run);
  if (!report.ok()) return CannotRunAgain(report.status());
  history.Footer(HistoryFooter(*report));
  COMMITLAB_RETURN_IF_ERROR(compare.Finish());
  return std::move(compare).Take(std::move(rec->command));
} catch (const Json::exception& e) {
  return Malformed(e);
}

}  // namespace commitlab::scenarios
