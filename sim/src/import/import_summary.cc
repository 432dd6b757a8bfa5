// Summary (import_sinks.h): what `commitlab import` prints.
#include <fmt/format.h>

#include <ctime>

#include "commitlab/sim/import/import_sinks.h"

namespace commitlab::sim::import {
namespace {

// Findings kept for printing, per severity; the rest are counted.
constexpr int64_t kKept = 100;

std::string Counts(const std::map<std::string, int64_t>& m) {
  std::string out;
  for (const auto& [k, n] : m) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, k.empty() ? "(none)" : k);
  return out;
}

}  // namespace

std::string UtcTime(int64_t epoch_ms) {
  const time_t seconds = static_cast<time_t>(epoch_ms >= 0 ? epoch_ms / 1000 : (epoch_ms - 999) / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, ((epoch_ms % 1000) + 1000) % 1000);
}

Status Summary::Begin(const ImportSource& source) {
  source_ = source;
  return Status::OK();
}

Status Summary::Commit(ImportedCommit c) {
  if (!first_) {
    first_ = c.version;
    first_ms_ = c.time_ms;
  }
  last_ = c.version;
  last_ms_ = c.time_ms;
  ++commits_;
  ++writers_[c.writer];
  ++operations_[c.operation];
  return Status::OK();
}

Status Summary::Found(const Finding& f) {
  ++kinds_[f.kind];
  int64_t& shown = f.problem ? shown_problems_ : shown_notes_;
  ++(f.problem ? problems_ : notes_);
  if (shown < kKept) {
    ++shown;
    shown_.push_back(f);
  }
  return Status::OK();
}

Status Summary::End(const TableFacts& facts) {
  facts_ = facts;
  return Status::OK();
}

std::string Summary::Text(size_t max_shown) const {
  std::string out = fmt::format("{} log: {}\n", FormatName(source_.format), source_.log);
  for (const std::string& r : source_.read) out += fmt::format("  read: {}\n", r);
  for (const std::string& n : source_.not_read) out += fmt::format("  not read: {}\n", n);
  for (const std::string& n : facts_.notes) out += fmt::format("  note: {}\n", n);
  if (commits_ == 0) {
    out += "commits: none\n";
  } else {
    out += fmt::format("commits: {} (versions {}..{}), {} .. {}\n", commits_, *first_, last_, UtcTime(first_ms_),
                       UtcTime(last_ms_));
    out += fmt::format("operations: {}\n", Counts(operations_));
    out += fmt::format("writers: {}\n", Counts(writers_));
  }
  if (!facts_.isolation.empty() || !facts_.partition_columns.empty()) {
    std::string columns;
    for (const std::string& c : facts_.partition_columns) columns += (columns.empty() ? "" : ", ") + c;
    out += fmt::format("table: {}{}\n", facts_.isolation.empty() ? "" : "isolation " + facts_.isolation,
                       columns.empty() ? ", unpartitioned" : ", partitioned by " + columns);
  }
  out += fmt::format("findings: {} problem(s), {} note(s){}\n", problems_, notes_,
                     kinds_.empty() ? "" : " (" + Counts(kinds_) + ")");
  size_t problems = 0;
  size_t notes = 0;
  for (const Finding& f : shown_) {
    size_t& n = f.problem ? problems : notes;
    if (n++ >= max_shown) continue;
    out += fmt::format("  {} {} at {}: {}\n", f.problem ? "PROBLEM" : "note", f.kind, f.version, f.message);
  }
  if (static_cast<int64_t>(std::min(problems, max_shown)) < problems_ ||
      static_cast<int64_t>(std::min(notes, max_shown)) < notes_) {
    out += fmt::format("  ... and {} more (the history's finding events hold them all)\n",
                       problems_ + notes_ - static_cast<int64_t>(std::min(problems, max_shown)) -
                           static_cast<int64_t>(std::min(notes, max_shown)));
  }
  return out;
}

}  // namespace commitlab::sim::import
