#include "commitlab/core/iceberg/counter.h"

#include <fmt/format.h>

#include <utility>

#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/iceberg/reader.h"

namespace commitlab::iceberg {

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

Result<IncrementResult> IncrementCounter(IcebergCommitter* committer, std::string_view key, int64_t delta,
                                         OnValidationFailure on_failure, IsolationLevel isolation, int max_tries) {
  IncrementResult out;
  MetadataRef base;  // what the operation validates from: the metadata the value was read at
  FileRef file;
  auto read_and_write = [&]() -> Status {
    Result<PinnedReader> reader = PinnedReader::Open(committer->catalog(), committer->io(), committer->env());
    if (!reader.ok()) return reader.status();
    Result<std::vector<Row>> rows = reader->ReadAll();
    if (!rows.ok()) return rows.status();
    Result<std::optional<int64_t>> value = CounterValue(*rows, key);
    if (!value.ok()) return value.status();
    ++out.reads;
    base = reader->metadata();
    out.read_value = value->value_or(0);
    out.written_value = out.read_value + delta;
    file = MakeDataFile(committer->NewDataFilePath(), {CounterRow(key, out.written_value)});
    return committer->WriteDataFile(file);
  };

  COMMITLAB_RETURN_IF_ERROR(read_and_write());
  for (int tries = 1;; ++tries) {
    ++out.commits;
    Result<CommitResult> r = committer->Commit(NewOverwriteByFilter(*base, CounterFilter(key), {file}, isolation));
    if (r.ok()) {
      out.snapshot_id = r->snapshot_id;
      return out;
    }
    if (r.status().code() != Code::kConflict) return r.status();
    ++out.validation_failures;
    if (on_failure == OnValidationFailure::kGiveUp || tries >= max_tries) return r.status();
    if (on_failure == OnValidationFailure::kRecommitStale) {
      // A fresh operation validates from the current snapshot, so the winner's commit is no
      // longer "concurrent": the stale value goes in unchallenged.
      Result<MetadataRef> fresh = committer->Refresh();
      if (!fresh.ok()) return fresh.status();
      base = *fresh;
    } else {
      COMMITLAB_RETURN_IF_ERROR(read_and_write());  // the stale file stays behind as an orphan
    }
  }
}

std::optional<std::string> CheckCounter(std::string_view key, int64_t initial, int64_t delta, int acknowledged,
                                        int64_t final_value) {
  const int64_t expected = initial + delta * acknowledged;
  if (final_value == expected) return std::nullopt;
  std::string lost;
  if (delta != 0 && (expected - final_value) % delta == 0 && (expected - final_value) / delta > 0) {
    const int64_t n = (expected - final_value) / delta;
    lost = fmt::format(" ({} increment{} lost)", n, n == 1 ? "" : "s");
  }
  return fmt::format("{}: counter {} is {}, but {} acknowledged increment{} of {} from {} make {}{}",
                     final_value < expected ? "lost update" : "duplicated update", key, final_value, acknowledged,
                     acknowledged == 1 ? "" : "s", delta, initial, expected, lost);
}

}  // namespace commitlab::iceberg
