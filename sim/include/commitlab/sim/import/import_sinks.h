// Where imported commits go (import.h): a commitlab history written through sim::History, a
// summary for the terminal, and a fan-out to several at once. The scenario of the last K commits
// is import_scenario.h.
#ifndef COMMITLAB_SIM_IMPORT_IMPORT_SINKS_H_
#define COMMITLAB_SIM_IMPORT_IMPORT_SINKS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/sim/history.h"
#include "commitlab/sim/import/import.h"

namespace commitlab::sim::import {

// Hands every call to each sink in turn; the first error stops it.
class FanOut final : public ImportSink {
 public:
  explicit FanOut(std::vector<ImportSink*> sinks) : sinks_(std::move(sinks)) {}
  Status Begin(const ImportSource& source) override;
  Status Commit(ImportedCommit c) override;
  Status Found(const Finding& f) override;
  Status End(const TableFacts& facts) override;

 private:
  std::vector<ImportSink*> sinks_;
};

// The history of an import (docs/history.md, "An imported history"): a header naming the source,
// for each commit a publish span and a `published` event carrying the commit as the log records
// it, a `finding` event after the commit that shows one, and a footer with the findings counted.
// Times are the commits' own, in microseconds since the first commit (the header's origin_ms).
class HistorySink final : public ImportSink {
 public:
  // `header`: the header's fields before "source" (commitlab, command, argv, settings).
  HistorySink(History* history, Json header) : history_(history), header_(std::move(header)) {}
  Status Begin(const ImportSource& source) override;
  Status Commit(ImportedCommit c) override;
  Status Found(const Finding& f) override;
  Status End(const TableFacts& facts) override;

 private:
  void WriteHeader(std::optional<int64_t> origin_ms);  // nullopt: a log without commits
  int64_t Micros(int64_t time_ms) const { return (time_ms - origin_ms_) * 1000; }

  History* const history_;
  Json header_;
  ImportSource source_;
  bool header_written_ = false;
  int64_t origin_ms_ = 0;
  int64_t last_t_us_ = 0;
  int64_t last_version_ = 0;
  int64_t commits_ = 0;
  std::map<std::string, int64_t> kinds_;  // finding kind -> how many
  int64_t problems_ = 0;
  int64_t notes_ = 0;
};

// What an import found, kept small for the terminal: counts, the writers, and the first findings.
class Summary final : public ImportSink {
 public:
  Status Begin(const ImportSource& source) override;
  Status Commit(ImportedCommit c) override;
  Status Found(const Finding& f) override;
  Status End(const TableFacts& facts) override;

  // The text `commitlab import` prints: what was read and not, the commits and writers, and each
  // finding (the first `max_shown` of each severity).
  std::string Text(size_t max_shown = 20) const;

  const ImportSource& source() const { return source_; }
  int64_t commits() const { return commits_; }
  int64_t problems() const { return problems_; }
  int64_t notes() const { return notes_; }
  const std::map<std::string, int64_t>& kinds() const { return kinds_; }
  const std::vector<Finding>& shown() const { return shown_; }
  const TableFacts& facts() const { return facts_; }

 private:
  ImportSource source_;
  TableFacts facts_;
  int64_t commits_ = 0;
  std::optional<int64_t> first_;
  int64_t last_ = 0;
  int64_t first_ms_ = 0;
  int64_t last_ms_ = 0;
  std::map<std::string, int64_t> writers_;     // writer -> commits
  std::map<std::string, int64_t> operations_;  // operation -> commits
  std::map<std::string, int64_t> kinds_;
  std::vector<Finding> shown_;
  int64_t problems_ = 0;
  int64_t notes_ = 0;
  int64_t shown_problems_ = 0;
  int64_t shown_notes_ = 0;
};

// "2023-08-07 16:45:32.135 UTC"
std::string UtcTime(int64_t epoch_ms);

}  // namespace commitlab::sim::import

#endif  // COMMITLAB_SIM_IMPORT_IMPORT_SINKS_H_
