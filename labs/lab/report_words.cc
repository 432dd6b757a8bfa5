#include "lab/report_words.h"

#include <fmt/format.h>

#include <set>

#include "commitlab/scenarios/protocols.h"
#include "commitlab/sim/detail_words.h"
#include "commitlab/sim/protocol_words.h"
#include "commitlab/sim/violation_words.h"

namespace commitlab::cli {
namespace {

using sim::Language;
using sim::Say;

// What each protocol's invariants checked, in its lecture's words (runner_text.cc's InvariantLines
// in English).
std::string Checked(Protocol p, Language language) {
  if (language == Language::kChinese) return sim::WordsOf(ProtocolName(p)).checked_zh;
  return std::string(scenarios::WordsOf(p).invariants);
}

}  // namespace

std::string OutcomeWord(scenarios::Outcome o, Language language) {
  return sim::OutcomeText(std::string(scenarios::OutcomeName(o)), language);
}

std::string WriterOutcomeWord(const scenarios::WriterReport& w, Language language) {
  if (w.outcome == scenarios::Outcome::kRefused && w.counters.conflicts == 0) {
    if (w.counters.unknown_outcomes > 0) return sim::OutcomeText("outcome unknown", language);
    if (w.counters.attempts == 0) return sim::OutcomeText("failed", language);
  }
  return OutcomeWord(w.outcome, language);
}

std::string SnapshotLineIn(const Snapshot& s, Language language) {
  const std::string line = scenarios::SnapshotLine(s);
  if (language != Language::kChinese || !line.starts_with("snapshot ")) return line;
  return "快照 " + line.substr(9);
}

std::vector<std::string> InvariantLinesIn(const scenarios::RunReport& r, Language language) {
  if (language != Language::kChinese) return scenarios::InvariantLines(r);
  std::vector<std::string> lines;
  if (r.violations.empty()) {
    std::set<Protocol> present;
    for (const scenarios::TableReport& t : r.tables) present.insert(t.protocol);
    std::string checked;
    for (Protocol p : present) {
      checked += (checked.empty() ? "" : "；") +
                 (present.size() > 1 ? std::string(ProtocolName(p)) + "：" : std::string()) + Checked(p, language);
    }
    lines.push_back(fmt::format("不变量：成立（{}）", checked.empty() ? "没有表" : checked));
    return lines;
  }
  lines.push_back(r.invariants_ok() ? fmt::format("不变量：{} 处违反，都在场景预期之中", r.violations.size())
                                    : "不变量：被违反");
  for (const scenarios::ViolationReport& v : r.violations) {
    lines.push_back(fmt::format("  - {}{}", v.expected ? "（预期之中）" : "",
                                sim::ViolationSentence(v.violation.kind, v.violation.message, language)));
  }
  return lines;
}

std::string FailureSummaryIn(const scenarios::RunReport& r, Language language) {
  if (language != Language::kChinese) return scenarios::FailureSummary(r);
  std::set<std::string> kinds;
  for (const scenarios::ViolationReport& v : r.violations)
    if (!v.expected) kinds.insert(sim::ViolationKindName(v.violation.kind, language));
  std::string out;
  for (const std::string& k : kinds) out += (out.empty() ? "" : "、") + k;
  auto add = [&out](int n, const char* what) {
    if (n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : "；", n, what);
  };
  add(r.expectations_failed(), "条预期未成立");
  add(static_cast<int>(r.run_errors.size()), "个运行错误");
  return sim::TidyChinese(out);
}

std::string ExpectationLineIn(const scenarios::ExpectationResult& e, Language language) {
  if (language != Language::kChinese) return scenarios::ExpectationLine(e);
  return fmt::format("{} {}：{}（看到 {}）", e.passed ? "成立" : "未成立", e.where, e.text, e.seen);
}

}  // namespace commitlab::cli
