#include "commitlab/scenarios/explore_order.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "commitlab/scenarios/parser.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/history_fields.h"

namespace commitlab::scenarios {
namespace {

// One scripted line of a writer as the execution ran it, in scheduler steps (1-based picks).
struct Span {
  int file_line = 0;
  std::string label = {};
  int64_t start = 0;
  int64_t end = 0;
  std::optional<int64_t> first_publish = {};  // the pick of its first atomic step
};

// A read or a publish: the steps whose order decides what a run sees.
struct Effect {
  int64_t pick = 0;
  size_t writer = 0;
  sim::StepAccess access = sim::StepAccess::kRead;
  const Span* span = nullptr;
};

std::vector<std::vector<Span>> LineSpans(const Scenario& s, const sim::History& history) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < s.writers.size(); ++i) index[s.writers[i].name] = i;
  std::vector<std::vector<Span>> spans(s.writers.size());
  for (const std::string& line : history.lines()) {
    const sim::Json e = sim::Json::parse(line);
    const std::string type = sim::StringField(e, "type");
    if (type != "step_start" && type != "step_end") continue;
    auto w = index.find(sim::StringField(e, "writer"));
    if (w == index.end()) continue;
    const int64_t pick = sim::IntField(e, "step", 0);
    const int file_line = static_cast<int>(sim::IntField(e, "line", 0));
    std::vector<Span>& mine = spans[w->second];
    if (type == "step_start") {
      // The steps of one line run back to back: a line of several steps is one span. Each pass of
      // a repeat starts a new one: its first step carries the pass's label ("c[2]").
      const std::string label = sim::StringField(e, "label");
      if (mine.empty() || mine.back().file_line != file_line || !label.empty())
        mine.push_back({.file_line = file_line, .label = label, .start = pick});
    }
    if (!mine.empty()) mine.back().end = pick;
  }
  return spans;
}

const Span* SpanAt(std::vector<Span>& spans, int64_t pick) {
  for (const Span& s : spans)
    if (s.start <= pick && pick <= s.end) return &s;
  return nullptr;
}

// A point in a writer's run of its lines, in the order it passes them. An order line's source is
// where the writer has got to (`W.x.publish`: arrived at the point; `W.x`: the line's end), its
// target where the other writer waits (`W.y`: the line's start; `W.y.publish`: leaving the point).
enum Phase { kStart = 0, kArrive = 1, kLeave = 2, kEnd = 3 };
struct Pos {
  size_t writer = 0;
  size_t span = 0;
  int phase = kStart;

  bool operator==(const Pos&) const = default;
  bool NotAfter(const Pos& o) const {
    return writer == o.writer && std::pair(span, phase) <= std::pair(o.span, o.phase);
  }
};

struct Edge {
  Pos from;
  Pos to;
  bool operator==(const Edge&) const = default;
};

size_t SpanIndex(const Effect& e, const std::vector<std::vector<Span>>& spans) {
  return static_cast<size_t>(e.span - spans[e.writer].data());
}

// Before its line's publish point, a read has happened once the writer reaches that point; a step
// at or after the point is certainly over once the line is.
Pos FromPos(const Effect& e, const std::vector<std::vector<Span>>& spans) {
  const bool before_point = e.span->first_publish && e.pick < *e.span->first_publish;
  return {e.writer, SpanIndex(e, spans), before_point ? kArrive : kEnd};
}

// A step before the publish point waits if the line does not start; one at or after it waits at
// the point.
Pos ToPos(const Effect& e, const std::vector<std::vector<Span>>& spans) {
  const bool at_or_after_point = e.span->first_publish && e.pick >= *e.span->first_publish;
  return {e.writer, SpanIndex(e, spans), at_or_after_point ? kLeave : kStart};
}

// The file's own order lines, between the spans the run had: they need not be said again.
std::vector<Edge> GivenEdges(const Scenario& s, const std::vector<std::vector<Span>>& spans) {
  auto find = [&](const StepRef& ref, int phase) -> std::optional<Pos> {
    const StepList& steps = s.writers[ref.writer].steps;
    size_t first = ref.step;  // the labelled step that starts the line
    while (first > 0 && steps[first].label.empty() && steps[first - 1].pos.line == steps[ref.step].pos.line) --first;
    for (size_t i = 0; i < spans[ref.writer].size(); ++i)
      if (!steps[first].label.empty() && spans[ref.writer][i].label == steps[first].label)
        return Pos{ref.writer, i, phase};
    return std::nullopt;
  };
  std::vector<Edge> given;
  for (const OrderEdge& o : s.order) {
    const std::optional<Pos> from = find(o.before, o.before_publish ? kArrive : kEnd);
    const std::optional<Pos> to = find(o.after, o.after_publish ? kLeave : kStart);
    if (from && to) given.push_back({*from, *to});
  }
  return given;
}

// `to` follows `from` by the writers' own order and the edges.
bool Reaches(const Pos& from, const Pos& to, const std::vector<Edge>& edges) {
  std::vector<Pos> todo = {from};
  std::vector<bool> used(edges.size(), false);
  while (!todo.empty()) {
    const Pos p = todo.back();
    todo.pop_back();
    if (p.NotAfter(to)) return true;
    for (size_t i = 0; i < edges.size(); ++i) {
      if (used[i] || !p.NotAfter(edges[i].from)) continue;
      used[i] = true;
      todo.push_back(edges[i].to);
    }
  }
  return false;
}

std::string PosRef(const Scenario& s, const std::vector<std::vector<Span>>& spans, const Pos& p) {
  const bool point = p.phase == kArrive || p.phase == kLeave;
  return fmt::format("{}.{}{}", s.writers[p.writer].name, spans[p.writer][p.span].label, point ? ".publish" : "");
}

// Replays the finding's decisions and returns its reads and publishes, each in its line's span
// (`spans`, which also get their first publish).
Result<std::vector<Effect>> ReplayEffects(const Scenario& scenario, const RunOptions& base,
                                          const ExploreFinding& finding, std::vector<std::vector<Span>>* spans) {
  sim::History history;
  NullEventSink quiet;
  RunOptions run = base;
  run.history = &history;
  run.events = &quiet;
  run.observer = nullptr;
  std::vector<ExploredStep> steps;
  COMMITLAB_RETURN_IF_ERROR((ReplayExploration(scenario, run, finding.decisions, &steps)).status());

  *spans = LineSpans(scenario, history);
  std::vector<Effect> effects;
  for (size_t i = 0; i < steps.size(); ++i) {
    const ExploredStep& st = steps[i];
    if (st.access != sim::StepAccess::kRead && st.access != sim::StepAccess::kPublish) continue;
    const int64_t pick = static_cast<int64_t>(i) + 1;
    std::vector<Span>& mine = (*spans)[static_cast<size_t>(st.writer)];
    for (Span& s : mine)
      if (s.start <= pick && pick <= s.end && st.access == sim::StepAccess::kPublish && !s.first_publish)
        s.first_publish = pick;
    effects.push_back(
        {.pick = pick, .writer = static_cast<size_t>(st.writer), .access = st.access, .span = SpanAt(mine, pick)});
  }
  return effects;
}

// Happens-before between the spans' positions, from the conflicting pairs: for each effect, the
// latest conflicting effect of every other writer before it.
std::vector<Edge> ConflictEdges(const std::vector<Effect>& effects, const std::vector<std::vector<Span>>& spans) {
  std::vector<Edge> edges;
  for (size_t b = 0; b < effects.size(); ++b) {
    if (effects[b].span == nullptr) continue;
    std::set<size_t> met;
    for (size_t a = b; a-- > 0;) {
      const Effect& ea = effects[a];
      if (ea.writer == effects[b].writer || ea.span == nullptr || met.count(ea.writer) != 0) continue;
      if (sim::Commute(ea.access, effects[b].access)) continue;
      met.insert(ea.writer);
      const Edge e{FromPos(ea, spans), ToPos(effects[b], spans)};
      if (std::find(edges.begin(), edges.end(), e) == edges.end()) edges.push_back(e);
    }
  }
  return edges;
}

// Keeps an edge only when the file's order lines, the others and each writer's own order do not
// already imply it.
void DropImpliedEdges(const std::vector<Edge>& given, std::vector<Edge>* edges) {
  for (size_t i = edges->size(); i-- > 0;) {
    const Edge e = (*edges)[i];
    edges->erase(edges->begin() + static_cast<std::ptrdiff_t>(i));
    std::vector<Edge> others = *edges;
    others.insert(others.end(), given.begin(), given.end());
    if (!Reaches(e.from, e.to, others)) edges->insert(edges->begin() + static_cast<std::ptrdiff_t>(i), e);
  }
}

// How many of seeds 1..kOrderCheckSeeds show the finding in a timed run of `ordered`, with the
// finding's faults and no `maybe` fault firing.
int SeedsShowing(const Scenario& ordered, const RunOptions& base, const ExploreFinding& finding) {
  NullEventSink quiet;
  RunOptions check = base;
  check.history = nullptr;
  check.events = &quiet;
  check.observer = nullptr;
  check.choose_fault = MaybeFaultChooser("skip");
  for (const std::string& rule : finding.faults)
    if (Result<sim::FaultRule> r = sim::ParseFaultRule(rule); r.ok()) check.faults.push_back(*r);
  int shown = 0;
  for (uint64_t seed = 1; seed <= kOrderCheckSeeds; ++seed) {
    check.seed = seed;
    Result<RunReport> r = RunScenario(ordered, check);
    if (r.ok() && ReportShows(*r, finding.kind)) ++shown;
  }
  return shown;
}

}  // namespace

bool ReportShows(const RunReport& r, const std::string& kind) {
  if (kind == "run error") return !r.run_errors.empty();
  for (const ViolationReport& v : r.violations)
    if (v.violation.kind == kind) return true;
  for (const ExpectationResult& e : r.expectations)
    if (!e.passed && "expect " + e.where == kind) return true;
  return false;
}

// Replay the finding, order its conflicting reads and publishes, keep the edges nothing else
// implies, write them as order lines and check the file they make.
Result<OrderLines> CounterexampleOrderLines(const Scenario& scenario, const RunOptions& base,
                                            const ExploreFinding& finding) {
  std::vector<std::vector<Span>> spans;
  COMMITLAB_ASSIGN_OR_RETURN(const std::vector<Effect> effects, ReplayEffects(scenario, base, finding, &spans));
  std::vector<Edge> edges = ConflictEdges(effects, spans);
  const std::vector<Edge> given = GivenEdges(scenario, spans);
  DropImpliedEdges(given, &edges);

  std::set<std::string> unlabelled;
  std::vector<std::string> lines;
  for (const Edge& e : edges) {
    for (const Pos& p : {e.from, e.to}) {
      const Span& sp = spans[p.writer][p.span];
      if (sp.label.empty()) unlabelled.insert(fmt::format("{} line {}", scenario.writers[p.writer].name, sp.file_line));
    }
    lines.push_back(fmt::format("order {} -> {}", PosRef(scenario, spans, e.from), PosRef(scenario, spans, e.to)));
  }
  OrderLines out;
  if (lines.empty()) {
    out.note = given.empty() ? "none needed: no read or publish of one writer met another's"
                             : "none beyond the file's own: they already force this order";
    return out;
  }
  if (!unlabelled.empty()) {
    std::string names;
    for (const std::string& u : unlabelled) names += (names.empty() ? "" : ", ") + u;
    out.note = fmt::format("label these lines to order them: {}", names);
    return out;
  }
  std::string text = scenario.text;
  if (!text.empty() && text.back() != '\n') text += '\n';
  text += "# the counterexample's order (commitlab explore)\n";
  for (const std::string& l : lines) text += l + "\n";
  Result<Scenario> ordered = ParseScenario(text, scenario.file_name);
  if (!ordered.ok()) {
    // The lines it would take form a cycle with the writers' own order.
    out.note =
        "no order lines can force it: its steps interleave inside one line, where no sync point reaches; "
        "replay the schedule";
    return out;
  }
  const int shown = SeedsShowing(*ordered, base, finding);
  out.lines = std::move(lines);
  out.note = fmt::format("added to the file, a timed run shows it on {} of seeds 1..{}", shown, kOrderCheckSeeds);
  return out;
}

}  // namespace commitlab::scenarios
