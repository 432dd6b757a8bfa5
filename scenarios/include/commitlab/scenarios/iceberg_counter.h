// The lost-update counter of "无锁并发写入 — 乐观并发保护什么、不保护什么", a client job on an Iceberg
// table (not part of Iceberg's protocol, so it lives with the scenario runner that runs it as the
// `counter` steps). The table holds one-row files {name: <key>, value: <n>}.
// A worker reads the counter from a pinned snapshot, adds to it, writes a new one-row file and
// commits an overwrite with filter name = <key>, validated from the snapshot it read. When two
// workers read the same value, the first commit wins and validation stops the second one's
// retry. What the worker does then decides the result: giving up loses nothing it was told
// succeeded; re-committing the stale value it computed before succeeds and silently drops the
// other increment (the library validates files, not where your value came from); re-reading and
// recomputing counts every increment.
#ifndef COMMITLAB_SCENARIOS_ICEBERG_COUNTER_H_
#define COMMITLAB_SCENARIOS_ICEBERG_COUNTER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/expression.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::scenarios {

inline constexpr char kCounterKeyColumn[] = "name";
inline constexpr char kCounterValueColumn[] = "value";

// ref(name="name") == "<key>"
iceberg::Expression CounterFilter(std::string_view key);
iceberg::Row CounterRow(std::string_view key, int64_t value);
// The value of `key` in `rows`; nullopt when no row holds it. Corruption when several do (a
// duplicated commit).
Result<std::optional<int64_t>> CounterValue(const std::vector<iceberg::Row>& rows, std::string_view key);

// What a worker does when validation stops its overwrite.
enum class OnValidationFailure {
  kGiveUp,              // report the ValidationException
  kRecommitStale,       // catch it, commit the value computed before with a fresh operation
  kRereadAndRecompute,  // read again, add again, commit again
};
// "give-up", "recommit-stale", "reread"
std::string_view OnValidationFailureName(OnValidationFailure v);
std::optional<OnValidationFailure> ParseOnValidationFailure(std::string_view s);

// One worker's increment in flight: what it read (and at which metadata), and the data file
// holding the value it computed. IncrementCounter does all of it in one call; the scenario
// runner takes the same steps one at a time (`counter read`, `counter add`, `counter commit`).
struct PendingIncrement {
  std::string key = {};
  iceberg::MetadataRef base = {};  // what the value was read at: the overwrite validates from here
  int64_t read_value = 0;          // absent counts as 0
  int64_t read_version = 0;        // the metadata version read_value was read at (base moves on a stale re-commit)
  int64_t delta = 0;
  iceberg::FileRef file = {};  // read_value + delta, written by WriteIncrement
  int reads = 0;
  int commits = 0;
  int validation_failures = 0;
};

// Reads `key` at the pointer's current snapshot into *state (key, base, read_value; one more
// read). Keeps delta, file and the counts.
Status StartIncrement(iceberg::IcebergCommitter* committer, std::string_view key, PendingIncrement* state);
// read_value + delta: InvalidArgument when it does not fit in 64 bits.
Result<int64_t> IncrementTarget(const PendingIncrement& state);
// Writes read_value + delta as a new one-row data file (state->file).
Status WriteIncrement(iceberg::IcebergCommitter* committer, PendingIncrement* state);
// Commits state->file as an overwrite by CounterFilter(key) at `isolation`, validated from
// state->base. A ValidationException is handled per `on_failure` (recommit-stale: validate from
// the current metadata instead; reread: StartIncrement and WriteIncrement again, with the same
// delta), at most `max_tries` commits in all; any other failure is returned as is.
Result<iceberg::CommitResult> CommitIncrement(
    iceberg::IcebergCommitter* committer, PendingIncrement* state, OnValidationFailure on_failure,
    iceberg::IsolationLevel isolation = iceberg::IsolationLevel::kSerializable, int max_tries = 10);

struct IncrementResult {
  int64_t read_value = 0;     // what the committed value was computed from (absent counts as 0)
  int64_t written_value = 0;  // what was committed
  int reads = 0;              // reads of the counter
  int commits = 0;            // Commit calls
  int validation_failures = 0;
  std::optional<int64_t> snapshot_id = {};  // the committed snapshot
};

// One worker adds `delta` to `key` through `committer`: read, compute, write a data file, commit
// an overwrite by CounterFilter(key) at `isolation`. A ValidationException is handled per
// `on_failure`, at most `max_tries` commits in all; any other failure is returned as is.
Result<IncrementResult> IncrementCounter(iceberg::IcebergCommitter* committer, std::string_view key, int64_t delta,
                                         OnValidationFailure on_failure,
                                         iceberg::IsolationLevel isolation = iceberg::IsolationLevel::kSerializable,
                                         int max_tries = 10);

// The checker's rule: `acknowledged` successful increments of `delta` from `initial` must leave
// initial + acknowledged * delta, plus any number up to `unknown` more (increments whose commit
// ended with CommitStateUnknownException: each may have landed). nullopt when they do, else what
// was lost, e.g. "lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make
// 20 (1 increment lost)".
std::optional<std::string> CheckCounter(std::string_view key, int64_t initial, int64_t delta, int acknowledged,
                                        int64_t final_value, int unknown = 0);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_ICEBERG_COUNTER_H_
