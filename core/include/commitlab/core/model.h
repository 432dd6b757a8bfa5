// The data model that enters and leaves a commit, after Paimon's ManifestEntry / Snapshot.
#ifndef COMMITLAB_CORE_MODEL_H_
#define COMMITLAB_CORE_MODEL_H_

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commitlab {

enum class CommitKind { kAppend, kCompact, kOverwrite };
std::string_view CommitKindName(CommitKind k);  // "APPEND", "COMPACT", "OVERWRITE"
std::optional<CommitKind> ParseCommitKind(std::string_view s);

enum class ChangeKind { kAdd, kDelete };
std::string_view ChangeKindName(ChangeKind k);  // "ADD", "DELETE"

// A data file. Its identity is (partition, bucket, level, name): moving a file to another level is
// a DELETE plus an ADD, as in Paimon's FileEntry.Identifier.
struct DataFile {
  std::string name = {};       // e.g. data-3f2a...-0.parquet
  std::string partition = {};  // "" for an unpartitioned table, else "dt=2024-01-01"
  int32_t bucket = 0;
  int32_t level = 0;
  int64_t min_key = 0;
  int64_t max_key = 0;
  int64_t row_count = 0;
  // Paimon's ManifestEntry.totalBuckets: the bucket count of the writer that wrote the file (0:
  // unknown, never checked).
  int32_t total_buckets = 0;

  bool operator==(const DataFile&) const = default;
};

struct FileChange {
  ChangeKind kind = ChangeKind::kAdd;
  DataFile file = {};

  bool operator==(const FileChange&) const = default;
};

// As S2 第 5 讲 quotes Paimon's conflict message (docs/lectures.md#s2-5-conflict):
// {kind=ADD, partition=, bucket=0, level=5, fileName=data-...-0.parquet, ...}
std::string FormatChange(const FileChange& c);

// The largest snapshot id a table may hold: far past any real table (a commit a microsecond for
// 146,000 years), and far enough below INT64_MAX that `id + n` never overflows. A stored id above
// it is a damaged or foreign file, reported as corruption rather than committed past.
inline constexpr int64_t kMaxSnapshotId = int64_t{1} << 62;

// One published snapshot. `changes` is the delta this snapshot applied to its parent.
struct Snapshot {
  int64_t id = 0;         // from 1
  int64_t parent_id = 0;  // the snapshot the writer built on; 0 for the first
  std::string commit_user = {};
  int64_t commit_identifier = 0;
  CommitKind kind = CommitKind::kAppend;
  int64_t time_millis = 0;
  int64_t total_records = 0;
  int64_t delta_records = 0;
  std::string delta_manifest = {};  // name of the manifest file holding `changes`
  std::vector<FileChange> changes = {};

  bool operator==(const Snapshot&) const = default;
};

// What a writer hands to Commit(): Paimon's ManifestCommittable, with the append and compact
// increments of all its messages already flattened.
struct Committable {
  int64_t identifier = 0;
  std::vector<FileChange> append_changes = {};   // new files (ADD); deleted files (DELETE) make it OVERWRITE
  std::vector<FileChange> compact_changes = {};  // compactBefore (DELETE) and compactAfter (ADD)
};

// A random UUID-shaped string (8-4-4-4-12 hex) drawn from the stream: file names stay
// deterministic under a seed.
class Rng;
std::string RandomUuid(Rng& rng);
// The same, appended to `*out`.
void AppendRandomUuid(Rng& rng, std::string* out);
// Appends `value` in decimal, without fmt: simulated sweeps name millions of writers and files,
// and a manifest per attempt (inline: it is that hot).
inline void AppendDecimal(int64_t value, std::string* out) {
  char digits[20];  // "-9223372036854775808"
  out->append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

// The parts joined, in one allocation: for messages built on a hot path, where fmt's parsing of
// the format string costs more than the joining.
inline std::string Concat(std::initializer_list<std::string_view> parts) {
  size_t size = 0;
  for (std::string_view p : parts) size += p.size();
  std::string out;
  out.reserve(size);
  for (std::string_view p : parts) out += p;
  return out;
}

// Sum of ADDed rows minus DELETEd rows.
int64_t DeltaRecords(const std::vector<FileChange>& changes);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_MODEL_H_
