#include "hunt/seed_query.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>

namespace commitlab::cli {
namespace {

constexpr std::string_view kNames =
    "committed, attempts, atomic_failures, conflicts, unknown_outcomes, idempotent_matches, gave_up, orphan_files, "
    "latest_snapshot, violations or failed";

std::optional<int64_t> Value(const std::string& name, const scenarios::RunReport& r) {
  const scenarios::Counters& t = r.tally;
  if (name == "committed") return t.committed;
  if (name == "attempts") return t.attempts;
  if (name == "atomic_failures") return t.atomic_failures;
  if (name == "conflicts") return t.conflicts;
  if (name == "unknown_outcomes") return t.unknown_outcomes;
  if (name == "idempotent_matches") return t.idempotent_matches;
  if (name == "gave_up") return t.gave_up;
  if (name == "orphan_files") return t.orphan_files;
  if (name == "latest_snapshot") return r.latest_snapshot();
  if (name == "violations") {
    int64_t n = 0;
    for (const scenarios::ViolationReport& v : r.violations) n += v.expected ? 0 : 1;
    return n;
  }
  if (name == "failed") return r.ok() ? 0 : 1;
  return std::nullopt;
}

}  // namespace

Result<SeedQuery> ParseSeedQuery(std::string_view text) {
  SeedQuery q{.text = std::string(text), .conditions = {}};
  size_t start = 0;
  do {
    const size_t comma = text.find(',', start);
    const size_t length = comma == std::string_view::npos ? text.size() - start : comma - start;
    const std::string_view part = text.substr(start, length);
    start = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
    const size_t op = part.find_first_of("=<>");
    if (op == std::string_view::npos || op == 0)
      return Status::InvalidArgument(
          fmt::format("--find: \"{}\" is not NAME=N, NAME>=N, NAME<=N, NAME>N or NAME<N", part));
    SeedCondition c;
    c.name = std::string(part.substr(0, op));
    c.op = part.size() > op + 1 && part[op + 1] == '=' && part[op] != '=' ? std::string(part.substr(op, 2))
                                                                          : std::string(part.substr(op, 1));
    const std::string_view number = part.substr(op + c.op.size());
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), c.value);
    if (ec == std::errc::result_out_of_range)
      return Status::InvalidArgument(fmt::format("--find: \"{}\": {} is out of range", part, number));
    if (ec != std::errc() || end != number.data() + number.size() || number.empty())
      return Status::InvalidArgument(fmt::format("--find: \"{}\": expected a whole number after {}", part, c.op));
    if (!Value(c.name, scenarios::RunReport{}))
      return Status::InvalidArgument(fmt::format("--find: unknown name \"{}\" (expected {})", c.name, kNames));
    q.conditions.push_back(std::move(c));
  } while (start <= text.size());
  return q;
}

bool Matches(const SeedQuery& query, const scenarios::RunReport& report) {
  for (const SeedCondition& c : query.conditions) {
    const int64_t v = *Value(c.name, report);
    const bool holds = c.op == "="    ? v == c.value
                       : c.op == ">=" ? v >= c.value
                       : c.op == "<=" ? v <= c.value
                       : c.op == ">"  ? v > c.value
                                      : v < c.value;
    if (!holds) return false;
  }
  return true;
}

}  // namespace commitlab::cli
