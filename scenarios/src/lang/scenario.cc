#include "commitlab/scenarios/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "commitlab/core/check.h"

namespace commitlab::scenarios {

std::string_view OpName(const Op& op) { return op->name(); }

bool OpPublishes(const Op& op) { return op->publishes(); }

std::string_view SchedKindName(SchedKind k) {
  switch (k) {
    case SchedKind::kRandom: return "random";
    case SchedKind::kPct: return "pct";
    case SchedKind::kRoundRobin: return "round-robin";
    case SchedKind::kFree: return "free";
  }
  return "?";
}

bool Comparison::Matches(int64_t v) const {
  switch (op) {
    case CmpOp::kEq: return v == lo;
    case CmpOp::kGe: return v >= lo;
    case CmpOp::kLe: return v <= lo;
    case CmpOp::kRange: return v >= lo && v <= hi;
  }
  return false;
}

std::string Comparison::ToString() const {
  switch (op) {
    case CmpOp::kEq: return fmt::format("== {}", lo);
    case CmpOp::kGe: return fmt::format(">= {}", lo);
    case CmpOp::kLe: return fmt::format("<= {}", lo);
    case CmpOp::kRange: return fmt::format("{}..{}", lo, hi);
  }
  return "?";
}

std::string_view CounterName(Counter c) {
  switch (c) {
    case Counter::kCommitted: return "committed";
    case Counter::kAttempts: return "attempts";
    case Counter::kAtomicFailures: return "atomic_failures";
    case Counter::kConflicts: return "conflicts";
    case Counter::kUnknownOutcomes: return "unknown_outcomes";
    case Counter::kIdempotentMatches: return "idempotent_matches";
    case Counter::kGaveUp: return "gave_up";
    case Counter::kOrphanFiles: return "orphan_files";
  }
  return "?";
}

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kOk: return "ok";
    case Outcome::kRefused: return "refused";
    case Outcome::kGaveUp: return "gave-up";
    case Outcome::kCrashed: return "crashed";
  }
  return "?";
}

const std::vector<std::string_view>& InvariantViolationNames() {
  // sim/checker.h's kinds, plus what the Iceberg checks add (protocols/iceberg/iceberg_table.h): a
  // counter's lost increment and a file a retained snapshot still reaches that is gone.
  static const std::vector<std::string_view> kNames = {"lost",     "duplicate",    "failed_visible", "misplaced",
                                                       "gap",      "duplicate_id", "fork",           "delete_not_live",
                                                       "add_live", "lost_update",  "missing_file"};
  return kNames;
}

Step StepList::operator[](size_t i) const {
  const Segment& s = SegmentOf(i);
  const size_t offset = i - s.begin;
  if (s.count == 0) return s.steps[offset];
  Step step = s.steps[offset % s.steps.size()];
  const auto k = static_cast<int64_t>(offset / s.steps.size());  // 0 for the first iteration
  step.iteration = static_cast<int>(k + 1);
  if (k > 0) {
    std::unique_ptr<StepOp> advanced = step.op->Advanced(k * s.key_stride, k * s.id_stride);
    COMMITLAB_CHECK(advanced != nullptr, "a repeated line is held once only when its steps advance");
    step.op = Op(std::move(advanced));
  }
  return step;
}

const StepList::Segment& StepList::SegmentOf(size_t i) const {
  // The last segment that begins at or before i.
  auto it = std::upper_bound(segments_.begin(), segments_.end(), i,
                             [](size_t index, const Segment& s) { return index < s.begin; });
  return *std::prev(it);
}

size_t StepList::NextWhere(size_t from, bool (*test)(const Op&)) const {
  for (const Segment& s : segments_) {
    const size_t end = s.begin + s.size();
    if (end <= from) continue;
    const size_t m = s.steps.size();
    // A repeated line's iterations repeat its first one's ops: the first match comes within m steps.
    const size_t last = s.count == 0 ? end : std::min(end, std::max(from, s.begin) + m);
    for (size_t i = std::max(from, s.begin); i < last; ++i)
      if (test(s.steps[(i - s.begin) % m].op)) return i;
  }
  return size_;
}

void StepList::push_back(Step s) {
  if (segments_.empty() || segments_.back().count != 0) segments_.push_back({.begin = size_});
  segments_.back().steps.push_back(std::move(s));
  ++size_;
}

Step& StepList::stored(size_t i) {
  auto& s = const_cast<Segment&>(SegmentOf(i));
  COMMITLAB_CHECK(s.count == 0, "only a step push_back added is stored");
  return s.steps[i - s.begin];
}

void StepList::push_repeat(std::vector<Step> first, int64_t count, int64_t key_stride, int64_t id_stride) {
  Segment s{
      .begin = size_, .steps = std::move(first), .count = count, .key_stride = key_stride, .id_stride = id_stride};
  size_ += s.size();
  segments_.push_back(std::move(s));
}

size_t Scenario::TotalSteps() const {
  size_t n = 0;
  for (const Writer& w : writers) n += w.steps.size();
  return n;
}

std::optional<size_t> Scenario::FindWriter(std::string_view name) const {
  for (size_t i = 0; i < writers.size(); ++i)
    if (writers[i].name == name) return i;
  return std::nullopt;
}

std::string Scenario::Where(const SourcePos& pos) const {
  if (pos.col == 0) return fmt::format("{}:{}", file_name, pos.line);
  return fmt::format("{}:{}:{}", file_name, pos.line, pos.col);
}

}  // namespace commitlab::scenarios
