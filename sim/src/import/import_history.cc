// HistorySink (import_sinks.h): an imported log as a commitlab history.
#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <utility>

#include "commitlab/sim/import/import_sinks.h"

namespace commitlab::sim::import {
namespace {

// The log line each engine writes on a commit, in its own words: Delta's OptimisticTransaction,
// Iceberg's SnapshotProducer, Paimon's FileStoreCommitImpl (as core/ writes them too).
std::string LogLine(Format f, const ImportedCommit& c, const std::string& log) {
  switch (f) {
    case Format::kDelta: return fmt::format("Committed delta #{} to {}", c.version, log);
    case Format::kIceberg:
      if (c.details.contains("snapshot-id"))
        return fmt::format("Committed snapshot {} ({})", c.details["snapshot-id"].dump(), c.operation);
      return fmt::format("Committed metadata version {} ({})", c.version, c.operation);
    case Format::kPaimon:
      return fmt::format("Successfully commit snapshot {} to table {} by user {} with identifier {} and kind {}.",
                         c.version, log, c.user, c.identifier, c.kind);
  }
  return "";
}

Json SourceJson(const ImportSource& s, std::optional<int64_t> origin_ms) {
  Json versions = nullptr;
  if (s.first && s.last) versions = {{"first", *s.first}, {"last", *s.last}};
  return {{"format", FormatName(s.format)},
          {"path", s.path},
          {"log", s.log},
          {"versions", versions},
          {"read", s.read},
          {"not_read", s.not_read},
          {"origin_ms", origin_ms ? Json(*origin_ms) : Json(nullptr)},
          {"origin", origin_ms ? Json(UtcTime(*origin_ms)) : Json(nullptr)}};
}

}  // namespace

Status FanOut::Begin(const ImportSource& source) {
  for (ImportSink* s : sinks_) COMMITLAB_RETURN_IF_ERROR(s->Begin(source));
  return Status::OK();
}

Status FanOut::Commit(ImportedCommit c) {
  for (size_t i = 0; i + 1 < sinks_.size(); ++i) COMMITLAB_RETURN_IF_ERROR(sinks_[i]->Commit(c));
  return sinks_.empty() ? Status::OK() : sinks_.back()->Commit(std::move(c));
}

Status FanOut::Found(const Finding& f) {
  for (ImportSink* s : sinks_) COMMITLAB_RETURN_IF_ERROR(s->Found(f));
  return Status::OK();
}

Status FanOut::End(const TableFacts& facts) {
  for (ImportSink* s : sinks_) COMMITLAB_RETURN_IF_ERROR(s->End(facts));
  return Status::OK();
}

Status HistorySink::Begin(const ImportSource& source) {
  source_ = source;
  return Status::OK();
}

void HistorySink::WriteHeader(std::optional<int64_t> origin_ms) {
  origin_ms_ = origin_ms.value_or(0);
  Json header = header_;
  header["source"] = SourceJson(source_, origin_ms);
  history_->Header(header);
  header_written_ = true;
}

Status HistorySink::Commit(ImportedCommit c) {
  if (!header_written_) WriteHeader(c.time_ms);
  const int64_t t = Micros(c.time_ms);
  history_->Record("op_start", t, c.writer, {{"op", "publish"}});
  history_->Record("op_end", t, c.writer,
                   {{"op", "publish"}, {"at_us", t}, {"snapshot", c.version}, {"outcome", "published"}});
  Json commit = {{"file", std::filesystem::path(c.file).filename().string()}, {"operation", c.operation}};
  for (auto& [key, value] : c.details.items()) commit[key] = std::move(value);
  const int64_t identifier =
      source_.format == Format::kDelta ? (c.txns.empty() ? 0 : c.txns.front().second) : c.identifier;
  history_->Record("published", t, c.writer,
                   {{"level", "INFO"},
                    {"user", c.user},
                    {"identifier", identifier},
                    {"kind", c.kind},
                    {"attempt", 1},
                    {"snapshot", c.version},
                    {"message", LogLine(source_.format, c, source_.log)},
                    {"commit", std::move(commit)}});
  last_t_us_ = t;
  last_version_ = c.version;
  ++commits_;
  return history_->status();
}

Status HistorySink::Found(const Finding& f) {
  if (!header_written_) WriteHeader(std::nullopt);
  ++kinds_[f.kind];
  ++(f.problem ? problems_ : notes_);
  history_->Record("finding", last_t_us_, f.writer,
                   {{"kind", f.kind},
                    {"severity", f.problem ? "problem" : "note"},
                    {"snapshot", f.version},
                    {"commits", f.commits},
                    {"message", f.message}});
  return history_->status();
}

Status HistorySink::End(const TableFacts& facts) {
  if (!header_written_) WriteHeader(std::nullopt);
  const Json zero = {{"committed", commits_}, {"attempts", commits_},    {"atomic_failures", 0}, {"conflicts", 0},
                     {"unknown_outcomes", 0}, {"idempotent_matches", 0}, {"gave_up", 0},         {"orphan_files", 0}};
  const bool ok = problems_ == 0;
  history_->Footer(
      {{"schedule", nullptr},
       {"virtual_us", nullptr},
       {"latest_snapshot", std::max<int64_t>(0, last_version_)},
       {"tally", zero},
       {"faults_fired", Json::array()},
       {"verdicts",
        {{"ok", ok},
         {"invariants_ok", ok},
         {"violations", Json::array()},
         {"expectations", {{"passed", 0}, {"failed", 0}, {"results", Json::array()}}},
         {"run_errors", Json::array()}}},
       {"findings", {{"problems", problems_}, {"notes", notes_}, {"kinds", kinds_}}},
       {"table",
        {{"partition_columns", facts.partition_columns}, {"isolation", facts.isolation}, {"notes", facts.notes}}}});
  return history_->status();
}

}  // namespace commitlab::sim::import
