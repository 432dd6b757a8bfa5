#include "commitlab/process/writer_json.h"

#include <string>
#include <utility>

namespace commitlab::process {
namespace {

using sim::Json;

std::optional<sim::CommitOutcome> ParseOutcome(const std::string& s) {
  for (sim::CommitOutcome o :
       {sim::CommitOutcome::kAcknowledged, sim::CommitOutcome::kFailed, sim::CommitOutcome::kUnknown})
    if (sim::CommitOutcomeName(o) == s) return o;
  return std::nullopt;
}

Code ParseCode(const std::string& name) {
  for (Code c : {Code::kInvalidArgument, Code::kNotFound, Code::kCorruption, Code::kIOError, Code::kConflict,
                 Code::kRetriesExhausted, Code::kCrashed})
    if (CodeName(c) == name) return c;
  return Code::kIOError;  // an unknown name from a newer build: some failure
}

// The CommitStats members, in one place for both directions.
template <typename F>
void ForEachStat(CommitStats& s, F&& f) {
  f("attempts", s.attempts);
  f("snapshots", s.committed);
  f("atomic_failures", s.atomic_failures);
  f("unknown_outcomes", s.unknown_outcomes);
  f("idempotent_matches", s.idempotent_matches);
  f("conflicts", s.conflicts);
  f("gave_up", s.gave_up);
  f("manifests_written", s.manifests_written);
}

}  // namespace

Json AckJson(const Ack& ack) {
  return {{"ack", {{"user", ack.user}, {"identifier", ack.identifier}, {"snapshot", ack.snapshot}}}};
}

std::optional<Ack> ParseAckJson(const Json& j) {
  if (!j.is_object() || !j.contains("ack")) return std::nullopt;
  const Json& a = j["ack"];
  if (!a.is_object() || !a.value("user", Json()).is_string() || !a.value("identifier", Json()).is_number_integer() ||
      !a.value("snapshot", Json()).is_number_integer())
    return std::nullopt;
  return Ack{a["user"].get<std::string>(), a["identifier"].get<int64_t>(), a["snapshot"].get<int64_t>()};
}

void AddResultJson(const TableWriterResult& r, Json* out) {
  Json stats = Json::object();
  CommitStats s = r.stats;
  ForEachStat(s, [&](const char* name, int64_t& v) { stats[name] = v; });
  Json records = Json::array();
  for (const sim::CommitRecord& c : r.records) {
    records.push_back({{"identifier", c.identifier},
                       {"kind", CommitKindName(c.kind)},
                       {"outcome", sim::CommitOutcomeName(c.outcome)},
                       {"snapshot", c.snapshot_id}});
  }
  (*out)["user"] = r.user;
  (*out)["resumed_after"] = r.resumed_after;
  (*out)["acknowledged"] = r.acknowledged;
  (*out)["last_identifier"] = r.last_identifier;
  (*out)["stats"] = std::move(stats);
  (*out)["records"] = std::move(records);
  (*out)["fired_faults"] = r.fired_faults;
  (*out)["ok"] = r.error.empty();
  (*out)["error"] = r.error.empty() ? Json(nullptr) : Json(r.error);
  (*out)["error_code"] = r.error.empty() ? Json(nullptr) : Json(CodeName(r.error_code));
}

std::optional<TableWriterResult> ParseResultJson(const Json& j) {
  try {
    if (!j.is_object() || j.value("command", "") != "writer" || !j.contains("stats")) return std::nullopt;
    TableWriterResult r;
    r.user = j.at("user").get<std::string>();
    r.resumed_after = j.at("resumed_after").get<int64_t>();
    r.acknowledged = j.at("acknowledged").get<int64_t>();
    r.last_identifier = j.at("last_identifier").get<int64_t>();
    ForEachStat(r.stats, [&](const char* name, int64_t& v) { v = j.at("stats").at(name).get<int64_t>(); });
    for (const Json& c : j.at("records")) {
      const std::optional<CommitKind> kind = ParseCommitKind(c.at("kind").get<std::string>());
      const std::optional<sim::CommitOutcome> outcome = ParseOutcome(c.at("outcome").get<std::string>());
      if (!kind || !outcome) return std::nullopt;
      r.records.push_back(
          {r.user, c.at("identifier").get<int64_t>(), *kind, *outcome, c.at("snapshot").get<int64_t>()});
    }
    r.fired_faults = j.at("fired_faults").get<std::vector<std::string>>();
    if (!j.at("error").is_null()) {
      r.error = j.at("error").get<std::string>();
      r.error_code = ParseCode(j.at("error_code").get<std::string>());
    }
    return r;
  } catch (const Json::exception&) {
    return std::nullopt;
  }
}

}  // namespace commitlab::process
