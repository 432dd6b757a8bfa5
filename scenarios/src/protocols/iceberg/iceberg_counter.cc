#include "commitlab/scenarios/iceberg_counter.h"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/iceberg/reader.h"

namespace commitlab::scenarios {

using iceberg::CommitResult;
using iceberg::Expression;
using iceberg::IcebergCommitter;
using iceberg::IsolationLevel;
using iceberg::MakeDataFile;
using iceberg::MetadataRef;
using iceberg::NewOverwriteByFilter;
using iceberg::PinnedReader;
using iceberg::Row;
using iceberg::RowMatches;

Expression CounterFilter(std::string_view key) { return Expression::Equal(kCounterKeyColumn, std::string(key)); }

Row CounterRow(std::string_view key, int64_t value) {
  return Row{{kCounterKeyColumn, std::string(key)}, {kCounterValueColumn, value}};
}

Result<std::optional<int64_t>> CounterValue(const std::vector<Row>& rows, std::string_view key) {
  const Expression filter = CounterFilter(key);
  std::optional<int64_t> value;
  int matches = 0;
  for (const Row& row : rows) {
    if (!RowMatches(filter, row)) continue;
    ++matches;
    auto it = row.find(kCounterValueColumn);
    if (it == row.end() || !std::holds_alternative<int64_t>(it->second))
      return Status::Corruption(fmt::format("counter {} has a row without an integer {}", key, kCounterValueColumn));
    value = std::get<int64_t>(it->second);
  }
  if (matches > 1) return Status::Corruption(fmt::format("counter {} is held by {} rows", key, matches));
  return value;
}

std::string_view OnValidationFailureName(OnValidationFailure v) {
  switch (v) {
    case OnValidationFailure::kGiveUp: return "give-up";
    case OnValidationFailure::kRecommitStale: return "recommit-stale";
    case OnValidationFailure::kRereadAndRecompute: return "reread";
  }
  return "?";
}

std::optional<OnValidationFailure> ParseOnValidationFailure(std::string_view s) {
  for (OnValidationFailure v :
       {OnValidationFailure::kGiveUp, OnValidationFailure::kRecommitStale, OnValidationFailure::kRereadAndRecompute}) {
    if (OnValidationFailureName(v) == s) return v;
  }
  return std::nullopt;
}

Status StartIncrement(IcebergCommitter* committer, std::string_view key, PendingIncrement* state) {
  COMMITLAB_ASSIGN_OR_RETURN(PinnedReader reader,
                             PinnedReader::Open(committer->catalog(), committer->io(), committer->env()));
  COMMITLAB_ASSIGN_OR_RETURN(std::vector<Row> rows, reader.ReadAll());
  COMMITLAB_ASSIGN_OR_RETURN(std::optional<int64_t> value, CounterValue(rows, key));
  ++state->reads;
  state->key = std::string(key);
  state->base = reader.metadata();
  state->read_value = value.value_or(0);
  state->read_version = state->base->version;
  return Status::OK();
}

Result<int64_t> IncrementTarget(const PendingIncrement& state) {
  int64_t target = 0;
  if (__builtin_add_overflow(state.read_value, state.delta, &target)) {
    return Status::InvalidArgument(
        fmt::format("counter {}: {} + {} does not fit in a 64-bit integer", state.key, state.read_value, state.delta));
  }
  return target;
}

Status WriteIncrement(IcebergCommitter* committer, PendingIncrement* state) {
  COMMITLAB_ASSIGN_OR_RETURN(int64_t target, IncrementTarget(*state));
  state->file = MakeDataFile(committer->NewDataFilePath(), {CounterRow(state->key, target)});
  committer->env()->BeginStorageOp(StorageOp::kWriteData);
  Status st = committer->WriteDataFile(state->file);
  committer->env()->EndStorageOp(StorageOp::kWriteData);
  return st;
}

Result<CommitResult> CommitIncrement(IcebergCommitter* committer, PendingIncrement* state,
                                     OnValidationFailure on_failure, IsolationLevel isolation, int max_tries) {
  if (state->base == nullptr || state->file == nullptr)
    return Status::InvalidArgument("counter commit needs a counter read and a written value");
  for (int tries = 1;; ++tries) {
    ++state->commits;
    Result<CommitResult> r =
        committer->Commit(NewOverwriteByFilter(*state->base, CounterFilter(state->key), {state->file}, isolation));
    if (r.ok() || r.status().code() != Code::kConflict) return r;
    ++state->validation_failures;
    if (on_failure == OnValidationFailure::kGiveUp || tries >= max_tries) return r;
    if (on_failure == OnValidationFailure::kRecommitStale) {
      // A fresh operation validates from the current snapshot, so the winner's commit is no
      // longer "concurrent": the stale value goes in unchallenged.
      COMMITLAB_ASSIGN_OR_RETURN(MetadataRef fresh, committer->Refresh());
      state->base = fresh;
    } else {
      // Read again, add again (the stale file stays behind as an orphan).
      COMMITLAB_RETURN_IF_ERROR(StartIncrement(committer, state->key, state));
      COMMITLAB_RETURN_IF_ERROR(WriteIncrement(committer, state));
    }
  }
}

Result<IncrementResult> IncrementCounter(IcebergCommitter* committer, std::string_view key, int64_t delta,
                                         OnValidationFailure on_failure, IsolationLevel isolation, int max_tries) {
  PendingIncrement state{.delta = delta};
  COMMITLAB_RETURN_IF_ERROR(StartIncrement(committer, key, &state));
  COMMITLAB_RETURN_IF_ERROR(WriteIncrement(committer, &state));
  COMMITLAB_ASSIGN_OR_RETURN(CommitResult r, CommitIncrement(committer, &state, on_failure, isolation, max_tries));
  return IncrementResult{.read_value = state.read_value,
                         .written_value = state.read_value + state.delta,  // WriteIncrement checked it
                         .reads = state.reads,
                         .commits = state.commits,
                         .validation_failures = state.validation_failures,
                         .snapshot_id = r.snapshot_id};
}

std::optional<std::string> CheckCounter(std::string_view key, int64_t initial, int64_t delta, int acknowledged,
                                        int64_t final_value, int unknown) {
  for (int landed = 1; landed <= unknown; ++landed) {
    int64_t sum = 0, with = 0;
    if (!__builtin_mul_overflow(delta, static_cast<int64_t>(acknowledged + landed), &sum) &&
        !__builtin_add_overflow(initial, sum, &with) && with == final_value)
      return std::nullopt;
  }
  int64_t sum = 0;
  int64_t expected = 0;
  if (__builtin_mul_overflow(delta, static_cast<int64_t>(acknowledged), &sum) ||
      __builtin_add_overflow(initial, sum, &expected)) {
    return fmt::format("counter {}: {} acknowledged increments of {} from {} do not fit in a 64-bit integer", key,
                       acknowledged, delta, initial);
  }
  if (final_value == expected) return std::nullopt;
  std::string lost;
  int64_t missing = 0;
  if (delta != 0 && !__builtin_sub_overflow(expected, final_value, &missing) &&
      !(delta == -1 && missing == INT64_MIN) && missing % delta == 0 && missing / delta > 0) {
    const int64_t n = missing / delta;
    lost = fmt::format(" ({} increment{} lost)", n, n == 1 ? "" : "s");
  }
  const std::string maybe = unknown == 0 ? "" : fmt::format(", or with up to {} of unknown outcome more", unknown);
  return fmt::format("{}: counter {} is {}, but {} acknowledged increment{} of {} from {} make {}{}{}",
                     final_value < expected ? "lost update" : "duplicated update", key, final_value, acknowledged,
                     acknowledged == 1 ? "" : "s", delta, initial, expected, maybe, lost);
}

}  // namespace commitlab::scenarios
