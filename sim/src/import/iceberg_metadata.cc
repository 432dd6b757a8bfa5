// Iceberg's log (readers.h): one metadata file, whose snapshots are the commits, or a folder of
// metadata files, each a metadata version and so a commit (a new snapshot, or a schema, property
// or ref change without one).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "iceberg_commits.h"
#include "iceberg_parse.h"
#include "json_input.h"
#include "readers.h"

namespace commitlab::sim::import::internal {
namespace {

namespace fs = std::filesystem;

// Single file: a snapshot that became current on main after another must have that one as its
// parent (SnapshotProducer builds on the current snapshot and the catalog swaps only from it); a
// snapshot that becomes current again is a rollback. Found from the snapshot-log, before the
// snapshots are streamed.
struct Lineage {
  std::unordered_map<int64_t, std::optional<int64_t>> previous;  // snapshot -> the current one before it
  std::vector<std::pair<int64_t, int64_t>> rollbacks;            // (snapshot made current again, the one before)
};

Lineage LineageOf(const IcebergMetadata& m) {
  Lineage l;
  std::optional<int64_t> before;
  for (const IcebergLogEntry& e : m.snapshot_log) {
    if (before && *before == e.snapshot_id) continue;
    if (!l.previous.try_emplace(e.snapshot_id, before).second && before)
      l.rollbacks.emplace_back(e.snapshot_id, *before);
    before = e.snapshot_id;
  }
  return l;
}

}  // namespace

Status SequenceChecks(Checker* sink, int format_version, const SeqPoint& at, std::optional<int64_t> previous_seq,
                      int64_t previous_version) {
  const int64_t seq = at.sequence;
  if (format_version < 2 || !previous_seq) return Status::OK();
  if (seq <= *previous_seq) {
    return sink->Found(
        {.kind = "sequence_not_increasing",
         .problem = true,
         .version = at.version,
         .commits = {previous_version, at.version},
         .writer = at.writer,
         .message = fmt::format("snapshot {} has sequence number {}, not above {}, the sequence number of commit {} "
                                "before it: two commits took one sequence number, which Iceberg's "
                                "compare-and-swap on the metadata pointer prevents (a catalog that did "
                                "not check)",
                                at.snapshot_id, seq, *previous_seq, previous_version)});
  }
  if (seq > *previous_seq + 1) {
    return sink->Found({.kind = "gap",
                        .problem = false,
                        .version = at.version,
                        .commits = {previous_version, at.version},
                        .writer = at.writer,
                        .message = fmt::format("sequence numbers {}..{} belong to snapshots not in this metadata "
                                               "(expired, or committed to another branch)",
                                               *previous_seq + 1, seq - 1)});
  }
  return Status::OK();
}

namespace {

Status ReadOneFile(const std::string& file, Checker* sink) {
  IcebergMetadata m;
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergTop(file, &m));
  ImportSource source{.format = Format::kIceberg, .path = file, .log = file};
  source.read.push_back(
      fmt::format("one metadata file (format v{}): its snapshots, snapshot-log and refs; each "
                  "snapshot is a commit",
                  m.format_version));
  if (!m.metadata_log.empty())
    source.not_read.push_back(
        fmt::format("the {} earlier metadata file(s) its metadata-log names (give the metadata "
                    "folder to read each version)",
                    m.metadata_log.size()));
  source.not_read.push_back("manifest lists and manifests (Avro): which files each snapshot added or removed");
  COMMITLAB_RETURN_IF_ERROR(sink->Begin(source));
  const Lineage lineage = LineageOf(m);
  std::unordered_map<int64_t, int64_t> ordinal;  // snapshot id -> its place in the file
  int64_t n = 0;
  std::optional<int64_t> previous_seq;
  std::string last_writer;
  const Status streamed = ReadIcebergSnapshots(file, &m, [&](IcebergSnapshot s) -> Status {
    ImportedCommit c = SnapshotCommit(s, ++n, file, m);
    ordinal[s.id] = n;
    const std::string writer = c.writer;
    last_writer = writer;
    COMMITLAB_RETURN_IF_ERROR(sink->Commit(std::move(c)));
    auto it = lineage.previous.find(s.id);
    if (it != lineage.previous.end() && it->second && s.parent != it->second) {
      auto p = ordinal.find(*it->second);
      COMMITLAB_RETURN_IF_ERROR(sink->Found(
          {.kind = "parent_not_previous",
           .problem = true,
           .version = n,
           .commits = {p == ordinal.end() ? n : p->second, n},
           .writer = writer,
           .message = fmt::format("snapshot {} became current after snapshot {}, but its parent is {}: it was built "
                                  "without {}'s changes and they are not in main's lineage",
                                  s.id, *it->second, s.parent ? std::to_string(*s.parent) : "none", *it->second)}));
    }
    COMMITLAB_RETURN_IF_ERROR(
        SequenceChecks(sink, m.format_version, {n, writer, s.id, s.sequence}, previous_seq, n - 1));
    previous_seq = s.sequence;
    return Status::OK();
  });
  COMMITLAB_RETURN_IF_ERROR(streamed);
  for (const auto& [id, before] : lineage.rollbacks) {
    COMMITLAB_RETURN_IF_ERROR(sink->Found({.kind = "parent_not_previous",
                                           .problem = false,
                                           .version = ordinal.count(id) ? ordinal[id] : n,
                                           .commits = {},
                                           .writer = last_writer,
                                           .message = fmt::format("snapshot {} became current again after {}: a "
                                                                  "rollback (the snapshot-log says so)",
                                                                  id, before)}));
  }
  if (m.format_version >= 2 && previous_seq && m.last_sequence_number > *previous_seq) {
    COMMITLAB_RETURN_IF_ERROR(sink->Found(
        {.kind = "gap",
         .problem = false,
         .version = n,
         .commits = {n},
         .writer = last_writer,
         .message = fmt::format("last-sequence-number is {} but the newest snapshot's is {}: sequence numbers {}..{} "
                                "belong to snapshots not in this metadata (expired, or on another branch)",
                                m.last_sequence_number, *previous_seq, *previous_seq + 1, m.last_sequence_number)}));
  }
  return sink->End({.partition_columns = m.partition_fields, .isolation = IcebergIsolation(m)});
}

}  // namespace

Status ReadIcebergMetadata(const std::string& path, Checker* sink) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return ReadOneFile(path, sink);
  return ReadIcebergChain(path, sink);
}

}  // namespace commitlab::sim::import::internal
