// ScenarioSink (import_scenario.h) and the scenario text every format shares (scenario_text.h).
#include "commitlab/sim/import/import_scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "commitlab/sim/import/import_sinks.h"
#include "json_input.h"
#include "scenario_text.h"

namespace commitlab::sim::import {

Status ScenarioSink::Begin(const ImportSource& source) {
  source_ = source;
  return Status::OK();
}

Status ScenarioSink::Commit(ImportedCommit c) {
  window_.push_back(std::move(c));
  if (static_cast<int64_t>(window_.size()) > options_.commits) window_.pop_front();
  while (!findings_.empty() && findings_.front().version < window_.front().version) findings_.pop_front();
  return Status::OK();
}

Status ScenarioSink::Found(const Finding& f) {
  if (!window_.empty() && f.version >= window_.front().version) findings_.push_back(f);
  return Status::OK();
}

Status ScenarioSink::End(const TableFacts& facts) {
  facts_ = facts;
  return Status::OK();
}

Result<std::string> ScenarioSink::Text() const {
  if (window_.empty()) return Status::InvalidArgument("--scenario: the log holds no commit to make a scenario of");
  const internal::ScenarioInput in{source_, facts_, options_, window_, findings_};
  switch (source_.format) {
    case Format::kDelta: return internal::DeltaScenario(in);
    case Format::kIceberg: return internal::IcebergScenario(in);
    case Format::kPaimon: return internal::PaimonScenario(in);
  }
  return Status::InvalidArgument("unknown format");
}

std::string ScenarioSink::Described() const {
  if (window_.empty()) return "no commits";
  std::set<std::string> writers;
  for (const ImportedCommit& c : window_) writers.insert(c.writer);
  return fmt::format("{} versions {}..{}: {} commit(s) by {} job(s), {}", FormatName(source_.format),
                     window_.front().version, window_.back().version, window_.size(), writers.size(),
                     options_.writer_per_commit ? "a writer each" : "a writer per job");
}

namespace internal {

std::vector<std::string> AssignLanes(const std::deque<ImportedCommit>& window, bool per_commit,
                                     std::vector<std::string>* order) {
  struct Lane {
    std::string name;
    int64_t last = 0;
  };
  std::map<std::string, std::vector<Lane>> lanes;
  std::set<std::string> taken = {"setup"};
  std::vector<std::string> out;
  for (const ImportedCommit& c : window) {
    if (per_commit) {
      std::string name = fmt::format("{}-{}", SafeName(c.operation.empty() ? c.kind : c.operation, 40), c.version);
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
      for (int n = 2; taken.count(name) > 0; ++n)
        name = fmt::format("{}-{}-{}", SafeName(c.operation, 40), c.version, n);
      taken.insert(name);
      order->push_back(name);
      out.push_back(name);
      continue;
    }
    const int64_t began = c.read_version.value_or(c.version - 1);
    std::vector<Lane>& mine = lanes[c.writer];
    auto free = std::find_if(mine.begin(), mine.end(), [began](const Lane& l) { return l.last <= began; });
    if (free == mine.end()) {
      std::string name = c.writer;
      for (int n = static_cast<int>(mine.size()) + 1; taken.count(name) > 0; ++n)
        name = fmt::format("{}-{}", c.writer, n);
      taken.insert(name);
      order->push_back(name);
      mine.push_back({name, c.version});
      out.push_back(name);
    } else {
      free->last = c.version;
      out.push_back(free->name);
    }
  }
  return out;
}

std::string Word(std::string_view text) {
  const bool plain =
      !text.empty() && text.find_first_of(" \t\"#;\\") == std::string_view::npos &&
      std::none_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (plain) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
  }
  return out + "\"";
}

std::string TableName(const ImportSource& source) {
  std::filesystem::path p(source.path);
  if (p.filename().empty()) p = p.parent_path();
  std::string name = p.filename().string();
  if (name == "_delta_log" || name == "metadata" || name == "snapshot") name = p.parent_path().filename().string();
  if (name.ends_with(".metadata.json")) name = p.parent_path().parent_path().filename().string();
  return SafeName(name.empty() ? "imported" : name, 48);
}

std::string Opening(const ScenarioInput& in, std::string_view what) {
  const ImportedCommit& first = in.window.front();
  const ImportedCommit& last = in.window.back();
  std::string out = fmt::format(
      "# Written by `{} --scenario {}`: the last {} commit(s) of {} ({} log), versions {}..{}, committed\n"
      "# {} .. {}. {}\n"
      "# Each writer is one committing job. Every transaction starts once the setup writer is done, so\n"
      "# `commitlab explore` tries every interleaving of them; an order line holds one back only where\n"
      "# it needs a file another adds. Each `expect writer W ok` holds in the log, where every commit\n"
      "# landed: explore names the interleavings in which one would have conflicted or been lost.\n",
      in.options.command, in.options.commits, in.window.size(), in.source.log, FormatName(in.source.format),
      first.version, last.version, UtcTime(first.time_ms), UtcTime(last.time_ms), what);
  out += fmt::format("title {}\n", Word(fmt::format("{} log of {}, versions {}..{}", FormatName(in.source.format),
                                                    TableName(in.source), first.version, last.version)));
  out += fmt::format("source {}\n\n", Word(fmt::format("{} versions {}..{} (commitlab import)", in.source.log,
                                                       first.version, last.version)));
  return out;
}

std::string FindingComments(const ScenarioInput& in, int64_t version) {
  std::string out;
  for (const Finding& f : in.findings)
    if (f.version == version) out += fmt::format("#   {} {}: {}\n", f.problem ? "PROBLEM" : "note", f.kind, f.message);
  return out;
}

std::string CommitComment(const ImportedCommit& c, std::string_view noun) {
  return fmt::format("# {} {}: {} by {} at {}", noun, c.version, c.operation.empty() ? c.kind : c.operation,
                     c.user.empty() ? c.writer : c.user, UtcTime(c.time_ms));
}

std::string WriterLines(const std::vector<std::string>& writers, std::string_view user_key) {
  std::string out;
  for (const std::string& w : writers) out += fmt::format("writer name={}{}\n", w, user_key);
  return out;
}

std::string ExpectLines(const std::vector<std::string>& writers) {
  std::string out = "\n# In the log every one of these commits landed.\n";
  for (const std::string& w : writers) out += fmt::format("expect writer {} ok\n", w);
  return out;
}

}  // namespace internal
}  // namespace commitlab::sim::import
