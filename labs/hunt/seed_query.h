// --find EXPR for a seed range: which run to stop at. EXPR is one or more NAME OP N joined by ','
// (all must hold), with OP one of = >= <= > <, and NAME a tally counter (committed, attempts,
// atomic_failures, conflicts, unknown_outcomes, idempotent_matches, gave_up, orphan_files),
// latest_snapshot, violations (unexpected invariant violations) or failed (1 when the run failed).
//   --find atomic_failures=25     --find 'gave_up>=1,latest_snapshot<60'
#ifndef COMMITLAB_LABS_SEED_QUERY_H_
#define COMMITLAB_LABS_SEED_QUERY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"

namespace commitlab::cli {

struct SeedCondition {
  std::string name;
  std::string op;  // "=", ">=", "<=", ">", "<"
  int64_t value = 0;
};

struct SeedQuery {
  std::string text;
  std::vector<SeedCondition> conditions;
};

// Errors name the condition and what was expected.
Result<SeedQuery> ParseSeedQuery(std::string_view text);
bool Matches(const SeedQuery& query, const scenarios::RunReport& report);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SEED_QUERY_H_
