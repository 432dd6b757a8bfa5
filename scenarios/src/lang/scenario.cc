#include "commitlab/scenarios/scenario.h"

#include <fmt/format.h>

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
