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
                     ChangeKindName(c.kind), f.partition, f.bucket, f.level, f.name, f.min_key,
                     f.max_key, f.row_count);
}

std::string RandomUuid(Rng& rng) {
  const uint64_t a = rng.Next(), b = rng.Next();
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xffff,
                     b >> 48, b & 0xffffffffffffULL);
}

int64_t DeltaRecords(const std::vector<FileChange>& changes) {
  int64_t n = 0;
  for (const FileChange& c : changes) n += c.kind == ChangeKind::kAdd ? c.file.row_count : -c.file.row_count;
  return n;
}

}  // namespace commitlab
