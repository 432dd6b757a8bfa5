#include "lab/class_mode.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "commitlab/sim/protocol_words.h"
#include "commitlab/sim/text_width.h"
#include "commitlab/sim/violation_words.h"
#include "lab/lab_text.h"
#include "lab/report_words.h"

namespace commitlab::cli {
namespace {

using sim::DisplayColumns;
using sim::IsWide;
using sim::Language;
using sim::NextCodePoint;

constexpr size_t kMaxWhyLines = 13;

std::string Cut(const std::string& s, size_t columns) {
  if (DisplayColumns(s) <= columns) return s;
  std::string out;
  size_t used = 0;
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const size_t w = IsWide(NextCodePoint(s, &i)) ? 2 : 1;
    if (used + w > columns - 1) break;
    used += w;
    out.append(s, start, i - start);
  }
  return out + "…";
}

// What one screen says, in its language.
class Screen {
 public:
  Screen(const ClassRun& run, const LabWords& words)
      : r_(run), w_(words), zh_(words.language == Language::kChinese), report_(*run.report) {}

  ClassScreen Make() {
    ClassScreen s;
    for (const std::string& line : r_.heading) s.ask.push_back(Cut(line, kClassColumns));
    s.ask.push_back(
        Cut(fmt::format("== {}. {}{}{} ==", r_.number, r_.key, zh_ ? "：" : ": ", r_.title), kClassColumns));
    Add(&s.ask, Wrap(T("claim:    ", "断言："), r_.claim));
    const std::string question = ClassQuestion(r_.file, w_.language);
    if (!question.empty()) Add(&s.ask, Wrap(T("predict:  ", "请预测："), question));
    s.ask.push_back(
        Cut(fmt::format(fmt::runtime(T("({}: {})", "（{}：{}）")), "scenarios/" + r_.file, r_.how), kClassColumns));
    best_ = Best();
    std::vector<std::string> run = Run();
    std::vector<std::string> why = Why();
    std::vector<std::string> tail = Tail();
    // Everything on one screen: the why gives way first, then the run's details (its last line,
    // the invariants, stays longest); the verdict and the command that replays it stay. Two
    // lines stay for the key prompts after each half.
    const size_t room = kClassLines - 2;
    const size_t fixed = s.ask.size() + 2 + tail.size();
    const auto over = [&] { return fixed + run.size() + why.size() > room; };
    while (over() && why.size() > 3) why.pop_back();
    while (over() && run.size() > 2) run.erase(run.end() - 2);
    while (over() && !why.empty()) why.pop_back();
    while (over() && !run.empty()) run.pop_back();
    s.answer.push_back(T("-- the run --", "—— 运行 ——"));
    Add(&s.answer, run);
    s.answer.push_back(T("-- the answer --", "—— 答案 ——"));
    Add(&s.answer, why);
    Add(&s.answer, tail);
    for (std::string& line : s.answer) line = Cut(line, kClassColumns);
    return s;
  }

 private:
  const char* T(const char* en, const char* zh) const { return zh_ ? zh : en; }
  static void Add(std::vector<std::string>* to, const std::vector<std::string>& lines) {
    to->insert(to->end(), lines.begin(), lines.end());
  }

  // The run in brief: the chain, each refusal once, the tallies, counters, invariants.
  std::vector<std::string> Run() const {
    std::vector<std::string> out;
    if (!r_.matrix.empty()) return Pairs();
    for (const scenarios::TableReport& t : report_.tables) Chain(t, &out);
    std::map<std::string, std::vector<std::string>> by_message;  // each refusal once, with who got it
    for (const scenarios::WriterReport& w : report_.writers) {
      if (w.outcome == scenarios::Outcome::kOk) continue;
      const std::string first = AbbreviateUuids(FirstLines(w.error, 1).front());
      // Said once: when the why below quotes the message, only who got it.
      bool quoted = false;
      if (best_ != nullptr)
        for (const std::string& line : best_->lines)
          quoted = quoted || line.find(first.substr(0, 40)) != std::string::npos;
      by_message[WriterOutcomeWord(w, w_.language) +
                 (quoted ? T(" (why: below)", "（原因见下）") : (zh_ ? "：" : ": ") + first)]
          .push_back(w.name);
    }
    for (const auto& [message, who] : by_message) {
      std::string names;
      for (const std::string& n : who) names += (names.empty() ? "" : T(", ", "、")) + n;
      Add(&out, Wrap("  " + names + " ", message));
    }
    const scenarios::Counters& c = report_.tally;
    // A lost race in each protocol's lecture's words.
    const std::string_view p = report_.tables.empty() ? "paimon" : ProtocolName(report_.table().protocol);
    const char* lost = !zh_ ? "lost races" : sim::WordsOf(p).lost_count_zh;
    out.push_back(fmt::format(fmt::runtime(T("  {}: {}; conflicts: {}; unknown outcomes: {}; idempotent matches: {}",
                                             "  {} {} 次；冲突 {} 次；结果未知 {} 次；幂等命中 {} 次")),
                              lost, c.atomic_failures, c.conflicts, c.unknown_outcomes, c.idempotent_matches));
    Invariants(&out);
    return out;
  }

  // The invariants in one line: what held, or how many violations of which kinds (the why and the
  // full lab give each).
  void Invariants(std::vector<std::string>* out) const {
    if (report_.violations.empty()) {
      Add(out, Wrap("  ", InvariantLinesIn(report_, w_.language).front()));
      return;
    }
    std::map<std::string, int> kinds;
    for (const scenarios::ViolationReport& v : report_.violations)
      ++kinds[sim::ViolationKindName(v.violation.kind, w_.language)];
    std::string list;
    for (const auto& [kind, n] : kinds) list += fmt::format("{}{} ×{}", list.empty() ? "" : T(", ", "、"), kind, n);
    out->push_back(
        fmt::format(fmt::runtime(report_.invariants_ok()
                                     ? T("  invariants: {} violation(s), each one the scenario expects: {}",
                                         "  不变量：{} 处违反，都在场景预期之中：{}")
                                     : T("  invariants: VIOLATED, {} violation(s): {}", "  不变量：被违反，{} 处：{}")),
                    report_.violations.size(), list));
  }

  // A conflict matrix's pairs, both levels side by side: "can/cannot" per pair.
  std::vector<std::string> Pairs() const {
    // A matrix row's cells: its label, then what is between runs of two spaces.
    auto cells = [](const std::string& row) {
      std::vector<std::string> c;
      for (size_t at = 2; at < row.size();) {
        const size_t end = row.find("  ", at);
        c.push_back(row.substr(at, end == std::string::npos ? std::string::npos : end - at));
        if (end == std::string::npos) break;
        at = row.find_first_not_of(' ', end);
        if (at == std::string::npos) break;
      }
      return c;
    };
    std::vector<std::string> levels, names;
    std::vector<std::vector<std::string>> rows;  // per level, its pairs rows
    bool pairs = false;
    for (const std::string& line : r_.matrix) {
      if (line.find("(table level)") != std::string::npos || line.find("（表级）") != std::string::npos) {
        levels.push_back(line.substr(0, std::min(line.find(" ("), line.find("（"))));
        rows.emplace_back();
        pairs = false;
      } else if (line.starts_with("  pairs") || line.starts_with("  两两之间")) {
        pairs = true;
        names = cells(line);
      } else if (pairs && !line.empty() && !rows.empty()) {
        rows.back().push_back(line);
      }
    }
    std::vector<std::string> out;
    if (rows.size() != 2 || rows[0].size() != rows[1].size() || names.empty()) return r_.matrix;
    out.push_back(fmt::format(fmt::runtime(T("  which pairs can conflict ({} / {}):", "  哪些组合会冲突（{} / {}）：")),
                              levels[0], levels[1]));
    std::string header = "    " + std::string(10, ' ');
    for (size_t k = 1; k < names.size(); ++k)
      header += names[k] + std::string(DisplayColumns(names[k]) < 16 ? 16 - DisplayColumns(names[k]) : 1, ' ');
    header.erase(header.find_last_not_of(' ') + 1);
    out.push_back(header);
    for (size_t i = 0; i < rows[0].size(); ++i) {
      const std::vector<std::string> a = cells(rows[0][i]), b = cells(rows[1][i]);
      const size_t label = DisplayColumns(a.front());
      std::string line = "    " + a.front() + std::string(label < 10 ? 10 - label : 1, ' ');
      for (size_t k = 1; k < a.size() && k < b.size(); ++k) {
        const std::string cell = a[k] + "/" + b[k];
        line += cell + std::string(sim::DisplayColumns(cell) < 16 ? 16 - sim::DisplayColumns(cell) : 1, ' ');
      }
      line.erase(line.find_last_not_of(' ') + 1);
      out.push_back(line);
    }
    return out;
  }

  void Chain(const scenarios::TableReport& t, std::vector<std::string>* out) const {
    const std::string name = report_.tables.size() > 1 ? t.name + " " : "";
    if (t.chain.size() > 8) {
      out->push_back(fmt::format(fmt::runtime(T("  {}latest snapshot id: {}; snapshots per commit user: {}",
                                                "  {}最新快照 id = {}；每个提交用户的快照数：{}")),
                                 name, t.latest_snapshot, scenarios::PerUserLine(t)));
    } else {
      std::string chain;
      for (size_t i = 0; i < t.chain.size(); ++i) {
        const Snapshot& s = t.chain[i];
        const std::string op = i < t.operations.size() ? t.operations[i] : std::string(CommitKindName(s.kind));
        chain += fmt::format("{}#{} {} {}", chain.empty() ? "" : " · ", s.id, op, s.commit_user);
      }
      Add(out, Wrap(fmt::format(fmt::runtime(T("  {}snapshots: ", "  {}快照：")), name),
                    chain.empty() ? T("none", "没有") : chain));
    }
    for (const auto& [key, value] : t.counters)
      out->push_back(fmt::format(fmt::runtime(T("  counter {} = {}", "  计数器 {} = {}")), key, value));
  }

  // The explanation that matters most here.
  const sim::Explanation* Best() const {
    static const std::vector<std::string> kOrder = {"lost-update", "conflict",  "gave-up",  "unknown-outcome",
                                                    "crash",       "violation", "lost-race"};
    for (const std::string& kind : kOrder) {
      for (const sim::Explanation& x : r_.why)
        if (x.kind == kind) return &x;
    }
    return nullptr;
  }

  // The answer's why: the best explanation, then how many others there were, then the notes.
  std::vector<std::string> Why() const {
    std::vector<std::string> out;
    const sim::Explanation* best = best_;
    if (best != nullptr) {
      for (size_t i = 0; i < best->lines.size() && out.size() < kMaxWhyLines; ++i) {
        const std::string label = i == 0 ? T("why: ", "原因：") : std::string(zh_ ? 6 : 5, ' ');
        Add(&out, Wrap(label, AbbreviateUuids(best->lines[i])));
      }
      std::map<std::string, int> others;
      for (const sim::Explanation& x : r_.why)
        if (&x != best) ++others[x.kind];
      std::string more;
      for (const auto& [kind, n] : others)
        more += zh_ ? fmt::format("{}{} 条{}", more.empty() ? "" : "、", n, sim::ExplanationKindName(kind, w_.language))
                    : fmt::format("{}{} ×{}", more.empty() ? "" : ", ", sim::ExplanationKindName(kind, w_.language), n);
      if (!more.empty())
        out.push_back(fmt::format(
            fmt::runtime(T("     (and {} more: the full lab explains each)", "      （另有 {}：完整的实验逐条说明）")),
            more));
    }
    for (const std::string& note : r_.notes)
      Add(&out, Wrap(w_.language == Language::kChinese ? "讲义对照：" : "lectures: ", note));
    return out;
  }

  // The verdict and the command that runs it again.
  std::vector<std::string> Tail() const {
    std::vector<std::string> out;
    out.push_back(fmt::format(
        fmt::runtime(T("verdict: {0} ({1} of {2} expectations held)", "结论：{0}（{2} 条预期中 {1} 条成立）")),
        report_.ok() ? w_.agrees : w_.differs, report_.expectations_passed(), report_.expectations.size()));
    Add(&out, Wrap(T("again: ", "重放："), r_.replay));
    return out;
  }

  const ClassRun& r_;
  const LabWords& w_;
  const bool zh_;
  const scenarios::RunReport& report_;
  const sim::Explanation* best_ = nullptr;
};

}  // namespace

namespace {

bool NoLineStart(char32_t cp) {
  return std::u32string_view(U"，。、；：）」』》？！”’").find(cp) != std::u32string_view::npos;
}
bool NoLineEnd(char32_t cp) { return std::u32string_view(U"（「『《“‘").find(cp) != std::u32string_view::npos; }

// Where the last code point of `line` starts (UTF-8: back over continuation bytes).
size_t LastCodePoint(const std::string& line) {
  size_t at = line.size();
  while (at > 0 && (static_cast<unsigned char>(line[at - 1]) & 0xC0) == 0x80) --at;
  return at > 0 ? at - 1 : 0;
}

bool EndsWithOpening(const std::string& line, size_t indent) {
  if (line.size() <= indent) return false;
  size_t at = LastCodePoint(line);
  return at >= indent && NoLineEnd(NextCodePoint(line, &at));
}

// Moves the last wide character of `line` (past the label) to the front of `rest`; false when
// the line ends otherwise.
bool MoveLastDown(size_t indent, std::string* line, std::string* rest) {
  if (line->size() <= indent) return false;
  const size_t at = LastCodePoint(*line);
  size_t end = at;
  if (at < indent || !IsWide(NextCodePoint(*line, &end))) return false;
  rest->insert(0, line->substr(at));
  line->erase(at);
  return true;
}

}  // namespace

std::vector<std::string> Wrap(const std::string& label, const std::string& text, size_t width) {
  std::vector<std::string> out;
  const size_t indent = DisplayColumns(label);
  std::string line = label;
  size_t used = indent;
  // Where a break may go in `line`: at a space (dropped), or where Chinese meets a name (kept).
  size_t last_break = std::string::npos;
  bool at_space = false;
  char32_t before = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t start = i;
    const char32_t cp = NextCodePoint(text, &i);
    const size_t w = IsWide(cp) ? 2 : 1;
    if (!IsWide(cp) && cp != ' ' && IsWide(before)) {
      last_break = line.size();
      at_space = false;
    }
    if (used + w > width) {
      std::string rest;
      // A name or an English word is not cut: it goes down whole unless it alone is too long.
      if (!IsWide(cp) && cp != ' ' && last_break != std::string::npos && last_break > indent) {
        rest = line.substr(last_break + (at_space ? 1 : 0));
        line.erase(last_break);
      }
      // Chinese line-breaking rules: no line starts with a closing mark (，。）…), none ends
      // with an opening one (（「…): the character before goes down with it.
      const size_t floor = out.empty() ? label.size() : indent;  // bytes of the label, or its indent
      if (IsWide(cp) && NoLineStart(cp) && !MoveLastDown(floor, &line, &rest) && last_break != std::string::npos &&
          last_break > floor) {
        rest = line.substr(last_break + (at_space ? 1 : 0));  // a name before the mark goes down whole
        line.erase(last_break);
      }
      while (EndsWithOpening(line, floor) && line.size() > floor + 3) MoveLastDown(floor, &line, &rest);
      out.push_back(line);
      line = std::string(indent, ' ') + rest;
      used = DisplayColumns(line);
      last_break = std::string::npos;
      if (cp == ' ') {
        before = cp;
        continue;
      }
    }
    if (cp == ' ') {
      last_break = line.size();
      at_space = true;
    }
    line.append(text, start, i - start);
    used += w;
    before = cp;
  }
  out.push_back(line);
  return out;
}

ClassScreen MakeClassScreen(const ClassRun& run, const LabWords& words) { return Screen(run, words).Make(); }

}  // namespace commitlab::cli
