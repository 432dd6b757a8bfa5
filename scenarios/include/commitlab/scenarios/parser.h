// The scenario parser. Errors are Code::kInvalidArgument with the message
// "file:line:col: what is wrong (what was expected)"; the first error ends the parse.
//
// The parser is total: any byte string yields a Scenario or an error, in time and memory bounded
// by the limits below (it is fuzzed by scenarios/fuzz/parser_fuzz.cc).
#ifndef COMMITLAB_SCENARIOS_PARSER_H_
#define COMMITLAB_SCENARIOS_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios {

inline constexpr size_t kMaxLineBytes = 4096;
inline constexpr size_t kMaxSteps = 100'000;       // after expanding repeats
inline constexpr size_t kMaxListEntries = 64;      // files=..., checkpoints=...
inline constexpr size_t kMaxNameBytes = 64;        // writer, table, label, checkpoint names
inline constexpr size_t kMaxFileBytes = 16 << 20;  // LoadScenarioFile
// Iceberg data files keep their rows in memory: at most this many rows a file, and at most this
// many row copies a table (the rows its appends, overwrites and counter inits write, times one
// more for each rewrite, which may copy them all).
inline constexpr int64_t kMaxIcebergFileRows = 100'000;
inline constexpr int64_t kMaxIcebergTableRows = 1'000'000;

struct ParseOptions {
  // A scenario built by a program (`commitlab race` with many writers) may need more steps than a
  // file a person writes; the run's memory grows with them.
  size_t max_steps = kMaxSteps;
  // Off: every repeat line expanded step by step, as StepList holds the others (to test that the
  // two read the same).
  bool lazy_repeats = true;
};

// Parses scenario text; `file_name` only names the source in messages. No I/O. The text is kept
// in Scenario::text, so that a history can embed exactly what ran.
Result<Scenario> ParseScenario(std::string_view text, std::string_view file_name, ParseOptions options = {});

// The scenario without its `order` lines (each becomes a comment, so line numbers stay): every
// interleaving of its writers is open. `commitlab explore --ignore-order` and `run --ignore-order`.
Result<Scenario> WithoutOrderLines(const Scenario& scenario);

// Reads and parses a file. A file that cannot be read is an InvalidArgument naming the path.
Result<Scenario> LoadScenarioFile(const std::string& path);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_PARSER_H_
