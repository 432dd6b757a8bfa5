#include "commitlab/core/model.h"

#include <fmt/format.h>

#include "commitlab/core/rng.h"

namespace commitlab {

std::string_view CommitKindName(CommitKind k) {
  switch (k) {
    case CommitKind::kAppend: return "APPEND";
    case CommitKind::kCompact: return "COMPACT";
    case CommitKind::kOverwrite: return "OVERWRITE";
  }
  return "?";
}

std::optional<CommitKind> ParseCommitKind(std::string_view s) {
  if (s == "APPEND") return CommitKind::kAppend;
  if (s == "COMPACT") return CommitKind::kCompact;
  if (s == "OVERWRITE") return CommitKind::kOverwrite;
  return std::nullopt;
}

std::string_view ChangeKindName(ChangeKind k) { return k == ChangeKind::kAdd ? "ADD" : "DELETE"; }

std::string FormatChange(const FileChange& c) {
  const DataFile& f = c.file;
  return fmt::format("{{kind={}, partition={}, bucket={}, level={}, fileName={}, minKey={}, maxKey={}, rowCount={}}}",
                     ChangeKindName(c.kind), f.partition, f.bucket, f.level, f.name, f.min_key, f.max_key, f.row_count);
}

std::string RandomUuid(Rng& rng) {
  std::string out;
  AppendRandomUuid(rng, &out);
  return out;
}

void AppendRandomUuid(Rng& rng, std::string* out) {
  const uint64_t a = rng.Next(), b = rng.Next();
  // a's 16 hex digits, then b's, dashed 8-4-4-4-12. By hand, not fmt: every simulated writer of a
  // sweep names its files with one, and fmt's parsing cost more than the rest of its set-up.
  static constexpr char kHex[] = "0123456789abcdef";
  // Where each word's digits go, most significant first; the dashes sit at 8, 13, 18 and 23.
  static constexpr uint8_t kFirst[16] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17};
  static constexpr uint8_t kSecond[16] = {19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};
  const size_t at = out->size();
  out->resize(at + 36, '-');
  char* uuid = out->data() + at;
  for (int d = 0; d < 16; ++d) {
    uuid[kFirst[d]] = kHex[(a >> (60 - 4 * d)) & 0xf];
    uuid[kSecond[d]] = kHex[(b >> (60 - 4 * d)) & 0xf];
  }
}

int64_t DeltaRecords(const std::vector<FileChange>& changes) {
  int64_t n = 0;
  for (const FileChange& c : changes) n += c.kind == ChangeKind::kAdd ? c.file.row_count : -c.file.row_count;
  return n;
}

}  // namespace commitlab
