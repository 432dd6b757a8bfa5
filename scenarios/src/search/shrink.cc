// Shrink: delta debugging over a scenario's lines (shrink.h).
#include "commitlab/scenarios/shrink.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <utility>

#include "commitlab/scenarios/explore.h"
#include "commitlab/scenarios/explore_order.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/latency.h"

namespace commitlab::scenarios {
namespace {

using Lines = std::vector<std::string>;

Lines SplitLines(const std::string& text) {
  Lines out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::string Join(const Lines& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// The line's words before any comment ('#' outside quotes).
std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> out;
  std::string word;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == '#' && !quoted) break;
    if (!quoted && (c == ' ' || c == '\t')) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool FirstWordIs(const std::string& line, std::string_view w) {
  const std::vector<std::string> words = Words(line);
  return !words.empty() && words.front() == w;
}

// The line names writer `w`: its declaration, one of its steps, or an order, fault or expect
// line about it.
bool Mentions(const std::string& line, const std::string& w) {
  for (const std::string& t : Words(line)) {
    if (t == w || t == "name=" + w || t.rfind(w + ".", 0) == 0 || t.rfind(w + ":", 0) == 0) return true;
  }
  return false;
}

// "repeat N:" at the start of the line: N and where the count is in the line.
struct Repeat {
  int64_t n = 0;
  size_t at = 0;
  size_t len = 0;
};
std::optional<Repeat> RepeatOf(const std::string& line) {
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string::npos || line.compare(start, 7, "repeat ") != 0) return std::nullopt;
  const size_t at = line.find_first_not_of(' ', start + 7);
  if (at == std::string::npos) return std::nullopt;
  int64_t n = 0;
  auto [end, ec] = std::from_chars(line.data() + at, line.data() + line.size(), n);
  if (ec != std::errc() || end == line.data() + line.size() || *end != ':') return std::nullopt;
  return Repeat{n, at, static_cast<size_t>(end - (line.data() + at))};
}

// Runs candidates: does the scenario text still show the kind?
class Oracle {
 public:
  Oracle(std::string file_name, RunOptions base, std::string kind, std::vector<uint64_t> seeds)
      : file_name_(std::move(file_name)), base_(std::move(base)), kind_(std::move(kind)), seeds_(std::move(seeds)) {}

  bool Fails(const Lines& lines) {
    ++tests_;
    Result<Scenario> s = ParseScenario(Join(lines), file_name_);
    if (!s.ok()) return false;
    for (uint64_t seed : seeds_) {
      if (Shows(*s, seed)) {
        // The seed that showed it goes first next time: a small change usually keeps it.
        std::rotate(seeds_.begin(), std::find(seeds_.begin(), seeds_.end(), seed), seeds_.end());
        return true;
      }
    }
    return false;
  }
  bool Shows(const Scenario& s, uint64_t seed, RunReport* out = nullptr) {
    RunOptions run = base_;
    run.seed = seed;
    Result<RunReport> r = RunScenario(s, run);
    if (!r.ok() || !ReportShows(*r, kind_)) return false;
    if (out != nullptr) *out = std::move(*r);
    return true;
  }
  int64_t tests() const { return tests_; }
  uint64_t seed() const { return seeds_.front(); }

 private:
  const std::string file_name_;
  const RunOptions base_;
  const std::string kind_;
  std::vector<uint64_t> seeds_;
  int64_t tests_ = 0;
};

class Reducer {
 public:
  Reducer(const ShrinkOptions& options, Oracle* oracle, Lines lines, std::vector<std::string> writers)
      : options_(options), oracle_(oracle), lines_(std::move(lines)), writers_(std::move(writers)) {}

  const Lines& lines() const { return lines_; }
  const std::vector<std::string>& log() const { return log_; }

  // Keeps `candidate` when it still fails.
  bool Try(Lines candidate, const std::string& what) {
    if (oracle_->tests() >= options_.max_tests || candidate == lines_) return false;
    if (!oracle_->Fails(candidate)) return false;
    lines_ = std::move(candidate);
    log_.push_back(what);
    if (options_.progress) options_.progress(what);
    return true;
  }

  void Run() {
    bool changed = true;
    while (changed && oracle_->tests() < options_.max_tests) {
      changed = false;
      changed |= RemoveWriters();
      changed |= CutRepeats();
      changed |= RemoveLines();
      changed |= EarlierHits();  // last: most pinned faults go with the lines
    }
  }

 private:
  bool RemoveWriters() {
    bool any = false;
    for (size_t i = writers_.size(); i-- > 0;) {
      Lines without;
      for (const std::string& l : lines_)
        if (!Mentions(l, writers_[i])) without.push_back(l);
      if (Try(std::move(without), "removed writer " + writers_[i])) {
        writers_.erase(writers_.begin() + static_cast<std::ptrdiff_t>(i));
        any = true;
      }
    }
    return any;
  }

  bool CutRepeats() {
    bool any = false;
    for (size_t i = 0; i < lines_.size(); ++i) {
      for (;;) {
        const std::optional<Repeat> r = RepeatOf(lines_[i]);
        if (!r || r->n <= 1) break;
        bool cut = false;
        for (int64_t n : {int64_t{1}, r->n / 2, r->n - 1}) {
          if (n < 1 || n >= r->n) continue;
          Lines c = lines_;
          c[i].replace(r->at, r->len, std::to_string(n));
          if (Try(std::move(c), fmt::format("repeat {} -> {} on line \"{}\"", r->n, n,
                                            Words(lines_[i]).size() > 2 ? Words(lines_[i])[2] : ""))) {
            cut = any = true;
            break;
          }
        }
        if (!cut) break;
      }
    }
    return any;
  }

  // A pinned fault at the N-th hit, moved to an earlier one, lets the repeats before it go.
  bool EarlierHits() {
    bool any = false;
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (!FirstWordIs(lines_[i], "fault")) continue;
      for (;;) {
        const size_t at = lines_[i].find(":nth=");
        if (at == std::string::npos) break;
        int64_t n = 0;
        const char* begin = lines_[i].data() + at + 5;
        auto [end, ec] = std::from_chars(begin, lines_[i].data() + lines_[i].size(), n);
        if (ec != std::errc() || n <= 1) break;
        bool moved = false;
        for (int64_t m : {int64_t{1}, n / 2, n - 1}) {
          if (m < 1 || m >= n) continue;
          Lines c = lines_;
          c[i].replace(at + 5, static_cast<size_t>(end - begin), std::to_string(m));
          if (Try(std::move(c), fmt::format("fault at hit {} instead of {}: {}", m, n, lines_[i]))) {
            moved = any = true;
            break;
          }
        }
        if (!moved) break;
      }
    }
    return any;
  }

  // ddmin over the lines that do something (blank lines and comments are left for the end).
  bool RemoveLines() {
    bool any = false;
    size_t chunks = 2;
    for (;;) {
      std::vector<size_t> live;
      for (size_t i = 0; i < lines_.size(); ++i)
        if (!Words(lines_[i]).empty()) live.push_back(i);
      if (live.size() < 2 || oracle_->tests() >= options_.max_tests) break;
      chunks = std::min(chunks, live.size());
      bool removed = false;
      const size_t size = (live.size() + chunks - 1) / chunks;
      for (size_t from = 0; from < live.size() && !removed; from += size) {
        const size_t to = std::min(live.size(), from + size);
        std::set<size_t> drop(live.begin() + static_cast<std::ptrdiff_t>(from),
                              live.begin() + static_cast<std::ptrdiff_t>(to));
        Lines c;
        for (size_t i = 0; i < lines_.size(); ++i)
          if (drop.count(i) == 0) c.push_back(lines_[i]);
        const std::string what = to - from == 1 ? fmt::format("removed line \"{}\"", lines_[live[from]])
                                                : fmt::format("removed {} lines", to - from);
        removed = Try(std::move(c), what);
      }
      if (removed) {
        any = true;
        chunks = std::max<size_t>(chunks - 1, 2);
      } else if (chunks >= live.size()) {
        break;
      } else {
        chunks = std::min(live.size(), chunks * 2);
      }
    }
    return any;
  }

  const ShrinkOptions& options_;
  Oracle* const oracle_;
  Lines lines_;
  std::vector<std::string> writers_;
  std::vector<std::string> log_;
};

// Every step line gets a label (order lines need one): "job-A: commit" -> "job-A.s7: commit".
Lines Labelled(const Lines& lines, const std::vector<std::string>& writers) {
  Lines out;
  int n = 0;
  for (const std::string& line : lines) {
    std::string l = line;
    const std::optional<Repeat> r = RepeatOf(l);
    const size_t head = r ? l.find_first_not_of(' ', r->at + r->len + 1) : l.find_first_not_of(" \t");
    if (head != std::string::npos) {
      for (const std::string& w : writers) {
        if (l.compare(head, w.size() + 1, w + ":") == 0) {
          l.insert(head + w.size(), fmt::format(".s{}", ++n));
          break;
        }
      }
    }
    out.push_back(std::move(l));
  }
  return out;
}

uint64_t CountFailing(Oracle* oracle, const std::string& text, const std::string& file, uint64_t seeds,
                      std::optional<uint64_t>* first) {
  Result<Scenario> s = ParseScenario(text, file);
  if (!s.ok()) return 0;
  uint64_t n = 0;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    if (!oracle->Shows(*s, seed)) continue;
    ++n;
    if (first != nullptr && !*first) *first = seed;
  }
  return n;
}

// The command line's faults and latency become lines of the text, so they shrink with it; the
// candidates run quiet, unrecorded and unscheduled.
RunOptions TextualBase(const RunOptions& given, EventSink* quiet, Lines* lines) {
  RunOptions base = given;
  base.events = quiet;
  base.history = nullptr;
  base.observer = nullptr;
  base.schedule.clear();
  if (base.latency) {
    std::erase_if(*lines, [](const std::string& l) { return FirstWordIs(l, "latency"); });
    lines->push_back(fmt::format("latency \"{}\"", sim::FormatLatencyModel(*base.latency)));
    base.latency.reset();
  }
  for (const sim::FaultRule& f : base.faults) lines->push_back("fault " + sim::FormatFaultRule(f));
  base.faults.clear();
  return base;
}

// The violation to keep: the one asked for, else the failing run's first; a checker's kind that
// the failing run shows.
Result<std::string> KindToKeep(const RunReport& failing, const ShrinkOptions& options) {
  std::string kind = options.kind;
  if (kind.empty()) {
    if (failing.violations.empty())
      return Status::InvalidArgument(
          fmt::format("seed {} shows no invariant violation: nothing to shrink", options.seed));
    kind = failing.violations.front().violation.kind;
  }
  const std::vector<std::string_view>& names = InvariantViolationNames();
  if (std::find(names.begin(), names.end(), kind) == names.end())
    return Status::InvalidArgument(fmt::format("--kind {} is not a checker violation kind", kind));
  if (!ReportShows(failing, kind))
    return Status::InvalidArgument(fmt::format("seed {} does not show a {} violation", options.seed, kind));
  return kind;
}

// The first two reductions tried. Faults that fired, as nth= rules: the run no longer tosses
// coins for them. Not when more fired than the report lists (ScriptedFaultPlan::kMaxFiredKept):
// pins for only some would change the run. Then the file without its expect lines.
void PinFaultsDropExpects(const RunReport& failing, const Scenario& start, const Lines& lines, Reducer* reducer) {
  const bool listed_all = failing.fired_faults_total <= static_cast<int64_t>(failing.fired_faults.size());
  if (listed_all && (!failing.fired_faults.empty() || !start.faults.empty())) {
    Lines pinned;
    for (const std::string& l : lines)
      if (!FirstWordIs(l, "fault")) pinned.push_back(l);
    for (std::string f : failing.fired_faults) {
      const size_t hit = f.find(":hit=");
      if (hit != std::string::npos) pinned.push_back("fault " + f.replace(hit + 1, 3, "nth"));
    }
    const size_t fired = failing.fired_faults.size();
    reducer->Try(std::move(pinned),
                 fmt::format("pinned the faults to the {} hit{} that fired", fired, fired == 1 ? "" : "s"));
  }
  Lines quiet_lines;
  for (const std::string& l : reducer->lines())
    if (!FirstWordIs(l, "expect")) quiet_lines.push_back(l);
  reducer->Try(std::move(quiet_lines), "removed the expect lines");
}

// The reduced lines with "repeat 1: X" written X (when that still parses) and every step
// labelled; `left` gets the writers that are left.
Lines LabelledResult(const Lines& reduced, const std::string& file, std::vector<std::string>* left) {
  if (Result<Scenario> small = ParseScenario(Join(reduced), file); small.ok())
    for (const Writer& w : small->writers) left->push_back(w.name);
  Lines plain;
  for (const std::string& l : reduced) {
    const std::optional<Repeat> r = RepeatOf(l);
    plain.push_back(r && r->n == 1 ? l.substr(l.find_first_not_of(' ', r->at + r->len + 1)) : l);
  }
  return Labelled(ParseScenario(Join(plain), file).ok() ? plain : reduced, *left);
}

// The explorer's shortest interleaving that shows the kind, and, if sync points can force it,
// its order lines, kept when they make more of the checked seeds fail.
void AddOrderLines(Oracle* oracle, const Scenario& labelled, const RunOptions& base, const std::string& kind,
                   const ShrinkOptions& options, Lines* best, uint64_t* failing_seeds, ShrinkResult* out) {
  Result<ExploreReport> explored = Explore(labelled, base, {.max_executions = 20'000});
  if (!explored.ok()) return;
  for (const ExploreFinding& f : explored->findings) {
    if (f.kind != kind) continue;
    out->schedule = f.schedule;
    Result<OrderLines> order = CounterexampleOrderLines(labelled, base, f);
    if (!order.ok()) return;
    out->order_note = order->note;
    if (order->lines.empty() || *failing_seeds == options.check_seeds) return;
    Lines with = *best;
    with.push_back("# the order that shows it (commitlab explore)");
    for (const std::string& l : order->lines) with.push_back(l);
    const uint64_t n = CountFailing(oracle, Join(with), labelled.file_name, options.check_seeds, nullptr);
    if (n > *failing_seeds) {
      *best = std::move(with);
      *failing_seeds = n;
      out->order_lines = order->lines;
    }
    return;
  }
}

// Not every seed shows it: the file pins the first of the checked seeds that does, else the
// oracle's.
void PinSeed(Oracle* oracle, const std::string& file, uint64_t check_seeds, Lines* best) {
  std::optional<uint64_t> pin;
  CountFailing(oracle, Join(*best), file, check_seeds, &pin);
  if (!pin) pin = oracle->seed();
  std::erase_if(*best, [](const std::string& l) { return FirstWordIs(l, "seed"); });
  best->push_back(fmt::format("seed {}", *pin));
}

// The shrunk file: a comment that says where it came from, then its lines, with a title that
// says what is left (the old one describes the big run).
Lines ShrunkText(uint64_t seed, const std::string& file_name, const std::string& kind, size_t writers_left,
                 const Lines& best) {
  Lines text = {fmt::format("# Shrunk by `commitlab shrink` (seed {}) from", seed), fmt::format("#   {}", file_name),
                fmt::format("# the smallest run found that still shows the {} violation; `commitlab run`", kind),
                "# passes while the violation happens."};
  for (std::string l : best) {
    if (FirstWordIs(l, "title"))
      l = fmt::format("title \"{} violation with {} writer{} (shrunk)\"", kind, writers_left,
                      writers_left == 1 ? "" : "s");
    if (!l.empty() || !text.back().empty()) text.push_back(l);
  }
  while (!text.empty() && text.back().empty()) text.pop_back();
  return text;
}

// The file expects every violation its run shows (the kept kind first; an unknown outcome
// without the idempotency check is a duplicate and an add of a live file at once), so `run`
// passes exactly while the bug is there.
Status AddExpectLines(const RunOptions& check, const std::string& file, const std::string& kind, Lines* text) {
  COMMITLAB_ASSIGN_OR_RETURN(Scenario bare, ParseScenario(Join(*text), file));
  COMMITLAB_ASSIGN_OR_RETURN(RunReport shown, RunScenario(bare, check));
  std::vector<std::string> kinds = {kind};
  for (const ViolationReport& v : shown.violations)
    if (std::find(kinds.begin(), kinds.end(), v.violation.kind) == kinds.end()) kinds.push_back(v.violation.kind);
  for (const std::string& k : kinds) text->push_back(fmt::format("expect invariant-violation {}", k));
  return Status::OK();
}

}  // namespace

ShrinkSize SizeOf(const Scenario& s) {
  ShrinkSize size{.writers = static_cast<int64_t>(s.writers.size()),
                  .steps = static_cast<int64_t>(s.TotalSteps()),
                  .faults = static_cast<int64_t>(s.faults.size()),
                  .lines = 0};
  for (const std::string& l : SplitLines(s.text)) size.lines += Words(l).empty() ? 0 : 1;
  return size;
}

Result<ShrinkResult> Shrink(const Scenario& scenario, const RunOptions& given, const ShrinkOptions& options) {
  Lines lines = SplitLines(scenario.text);
  NullEventSink quiet;
  const RunOptions base = TextualBase(given, &quiet, &lines);
  COMMITLAB_ASSIGN_OR_RETURN(Scenario start, ParseScenario(Join(lines), scenario.file_name));
  RunOptions first = base;
  first.seed = options.seed;
  COMMITLAB_ASSIGN_OR_RETURN(RunReport failing, RunScenario(start, first));
  COMMITLAB_ASSIGN_OR_RETURN(std::string kept, KindToKeep(failing, options));
  const std::string& kind = kept;

  std::vector<uint64_t> seeds = {options.seed};
  for (uint64_t s = 1; s <= options.extra_seeds; ++s)
    if (s != options.seed) seeds.push_back(s);
  Oracle oracle(scenario.file_name, base, kind, seeds);
  std::vector<std::string> writers;
  for (const Writer& w : start.writers) writers.push_back(w.name);

  ShrinkResult out;
  out.kind = kind;
  out.before = SizeOf(start);
  Reducer reducer(options, &oracle, lines, writers);
  PinFaultsDropExpects(failing, start, lines, &reducer);
  reducer.Run();

  // Label the steps, then let the explorer find the shortest interleaving and, if sync points
  // can force it, order lines that make every seed fail.
  const std::string file = scenario.file_name;
  std::vector<std::string> left;
  Lines best = LabelledResult(reducer.lines(), file, &left);
  uint64_t failing_seeds = CountFailing(&oracle, Join(best), file, options.check_seeds, nullptr);
  COMMITLAB_ASSIGN_OR_RETURN(Scenario labelled, ParseScenario(Join(best), file));
  AddOrderLines(&oracle, labelled, base, kind, options, &best, &failing_seeds, &out);
  out.checked_seeds = options.check_seeds;
  out.failing_seeds = failing_seeds;
  if (failing_seeds < options.check_seeds) {
    PinSeed(&oracle, file, options.check_seeds, &best);
    out.pinned_seed = true;
  }
  Lines text = ShrunkText(options.seed, scenario.file_name, kind, left.size(), best);
  RunOptions check = base;
  check.seed.reset();
  if (Status st = AddExpectLines(check, file, kind, &text); !st.ok()) return st;
  out.text = Join(text);

  COMMITLAB_ASSIGN_OR_RETURN(Scenario final_scenario, ParseScenario(out.text, file));
  out.after = SizeOf(final_scenario);
  COMMITLAB_ASSIGN_OR_RETURN(RunReport r, RunScenario(final_scenario, check));
  for (const ViolationReport& v : r.violations)
    if (v.violation.kind == kind) out.detail = v.violation.message;
  out.passes = r.ok();
  out.tests = oracle.tests();
  out.log = reducer.log();
  return out;
}

}  // namespace commitlab::scenarios
