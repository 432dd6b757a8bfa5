// Iceberg's log (readers.h): one metadata file, whose snapshots are the commits, or a folder of
// metadata files, each a metadata version and so a commit (a new snapshot, or a schema, property
// or ref change without one).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iceberg_commits.h"
#include "iceberg_lineage.h"
#include "iceberg_parse.h"
#include "json_input.h"
#include "readers.h"

namespace commitlab::sim::import::internal {
namespace {

namespace fs = std::filesystem;

}  // namespace

std::optional<Finding> SequenceFinding(int format_version, const SeqPoint& at, std::optional<int64_t> previous_seq,
                                       int64_t previous_version) {
  const int64_t seq = at.sequence;
  if (format_version < 2 || !previous_seq) return std::nullopt;
  if (seq <= *previous_seq) {
    return Finding{.kind = "sequence_not_increasing",
                   .problem = true,
                   .version = at.version,
                   .commits = {previous_version, at.version},
                   .writer = at.writer,
                   .message = fmt::format("snapshot {} has sequence number {}, not above {}, the sequence number of "
                                          "commit {} before it: two commits took one sequence number, which "
                                          "Iceberg's compare-and-swap on the metadata pointer prevents (a catalog "
                                          "that did not check)",
                                          at.snapshot_id, seq, *previous_seq, previous_version)};
  }
  if (seq > *previous_seq + 1) {
    return Finding{.kind = "gap",
                   .problem = false,
                   .version = at.version,
                   .commits = {previous_version, at.version},
                   .writer = at.writer,
                   .message = fmt::format("sequence numbers {}..{} belong to snapshots not in this metadata "
                                          "(expired, or committed to another branch)",
                                          *previous_seq + 1, seq - 1)};
  }
  return std::nullopt;
}

Status SequenceChecks(Checker* sink, int format_version, const SeqPoint& at, std::optional<int64_t> previous_seq,
                      int64_t previous_version) {
  std::optional<Finding> f = SequenceFinding(format_version, at, previous_seq, previous_version);
  return f ? sink->Found(*f) : Status::OK();
}

namespace {

// One file: a snapshot that became current on main after another must have that one as its
// parent (SnapshotProducer builds on the current snapshot and the catalog swaps only from it); a
// snapshot that becomes current again is a rollback. The snapshot-log says which, joined to the
// snapshots part by part (iceberg_lineage.h) before they are streamed as commits.
struct Mismatch {
  int64_t place = 0;   // the snapshot's place in the file
  int64_t before = 0;  // the snapshot current before it, which is not its parent
};

struct OneFileLineage {
  LineagePart last;                  // the last part, checked as the snapshots are streamed
  std::vector<Mismatch> mismatches;  // found in the other parts, by place
  std::vector<Rollback> rollbacks;   // in log order
};

// Every part but the last: one pass each, checking a part's snapshots while the next part's log
// entries are collected.
Status JoinParts(const std::string& file, const IcebergMetadata& m, int64_t parts, OneFileLineage* out) {
  LineagePart part(0, parts);
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergSnapshotLog(file, [&part](const IcebergLogEntry& e) { part.Add(e); }));
  for (int64_t j = 0; j + 1 < parts; ++j) {
    part.Finish(&out->rollbacks);
    LineagePart next(j + 1, parts);
    IcebergMetadata again = m;
    int64_t place = 0;
    auto check = [&](IcebergSnapshot s) {
      ++place;
      if (!part.Holds(s.id)) return Status::OK();
      if (std::optional<int64_t> before = part.Before(s.id); before && s.parent != before)
        out->mismatches.push_back({place, *before});
      return Status::OK();
    };
    COMMITLAB_RETURN_IF_ERROR(
        ReadIcebergSnapshots(file, &again, check, [&next](const IcebergLogEntry& e) { next.Add(e); }));
    part = std::move(next);
  }
  out->last = std::move(part);
  return Status::OK();
}

// The places of the snapshots a finding may name (a mismatch's `before`, a rollback's snapshot),
// as the snapshots stream past: by id, 0 until seen, then the latest place.
class Places {
 public:
  explicit Places(const OneFileLineage& l) {
    for (const Mismatch& m : l.mismatches) places_.emplace_back(m.before, 0);
    for (int64_t id : l.last.Befores()) places_.emplace_back(id, 0);
    for (const Rollback& r : l.rollbacks) places_.emplace_back(r.id, 0);
    std::sort(places_.begin(), places_.end());
    places_.erase(std::unique(places_.begin(), places_.end()), places_.end());
  }
  void Saw(int64_t id, int64_t place) {
    if (auto it = Find(id); it != places_.end()) it->second = place;
  }
  // Where `id` was last seen, or `otherwise`.
  int64_t Of(int64_t id, int64_t otherwise) {
    auto it = Find(id);
    return it == places_.end() || it->second == 0 ? otherwise : it->second;
  }

 private:
  std::vector<std::pair<int64_t, int64_t>>::iterator Find(int64_t id) {
    auto it = std::lower_bound(places_.begin(), places_.end(), std::pair<int64_t, int64_t>(id, 0));
    return it != places_.end() && it->first == id ? it : places_.end();
  }
  std::vector<std::pair<int64_t, int64_t>> places_;  // sorted by id
};

struct Streamed {
  int64_t n = 0;
  std::optional<int64_t> previous_seq = {};
  std::string last_writer = {};
};

// The last pass: each snapshot as a commit, then what it shows.
Status StreamCommits(const std::string& file, IcebergMetadata* m, const OneFileLineage& lineage, Checker* sink,
                     Places* places, Streamed* out) {
  size_t next_mismatch = 0;
  return ReadIcebergSnapshots(file, m, [&](IcebergSnapshot s) -> Status {
    const int64_t n = ++out->n;
    places->Saw(s.id, n);
    ImportedCommit c = SnapshotCommit(s, n, file, *m);
    const std::string writer = c.writer;
    out->last_writer = writer;
    COMMITLAB_RETURN_IF_ERROR(sink->Commit(std::move(c)));
    std::optional<int64_t> before;
    if (next_mismatch < lineage.mismatches.size() && lineage.mismatches[next_mismatch].place == n) {
      before = lineage.mismatches[next_mismatch++].before;
    } else if (lineage.last.Holds(s.id)) {
      before = lineage.last.Before(s.id);
      if (before && s.parent == before) before.reset();
    }
    if (before) {
      COMMITLAB_RETURN_IF_ERROR(sink->Found(
          {.kind = "parent_not_previous",
           .problem = true,
           .version = n,
           .commits = {places->Of(*before, n), n},
           .writer = writer,
           .message = fmt::format("snapshot {} became current after snapshot {}, but its parent is {}: it was built "
                                  "without {}'s changes and they are not in main's lineage",
                                  s.id, *before, s.parent ? std::to_string(*s.parent) : "none", *before)}));
    }
    COMMITLAB_RETURN_IF_ERROR(
        SequenceChecks(sink, m->format_version, {n, writer, s.id, s.sequence}, out->previous_seq, n - 1));
    out->previous_seq = s.sequence;
    return Status::OK();
  });
}

ImportSource OneFileSource(const std::string& file, const IcebergMetadata& m) {
  ImportSource source{.format = Format::kIceberg, .path = file, .log = file};
  source.read.push_back(
      fmt::format("one metadata file (format v{}): its snapshots, snapshot-log and refs; each "
                  "snapshot is a commit",
                  m.format_version));
  if (m.metadata_log_entries > 0)
    source.not_read.push_back(
        fmt::format("the {} earlier metadata file(s) its metadata-log names (give the metadata "
                    "folder to read each version)",
                    m.metadata_log_entries));
  source.not_read.push_back("manifest lists and manifests (Avro): which files each snapshot added or removed");
  return source;
}

// A part of 16,384 snapshot-log entries holds 512 KiB; a longer log costs a pass per part.
constexpr int64_t kLineagePart = int64_t{1} << 14;

Status ReadOneFile(const std::string& file, int64_t memory_entries, Checker* sink) {
  if (memory_entries <= 0) memory_entries = kLineagePart;
  IcebergMetadata m;
  OneFileLineage lineage{.last = LineagePart(0, 1, memory_entries), .mismatches = {}, .rollbacks = {}};
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergTop(file, &m, [&lineage](const IcebergLogEntry& e) { lineage.last.Add(e); }));
  COMMITLAB_RETURN_IF_ERROR(sink->Begin(OneFileSource(file, m)));
  if (lineage.last.overflowed())
    COMMITLAB_RETURN_IF_ERROR(JoinParts(file, m, LineageParts(m.snapshot_log_entries, memory_entries), &lineage));
  lineage.last.Finish(&lineage.rollbacks);
  std::sort(lineage.mismatches.begin(), lineage.mismatches.end(),
            [](const Mismatch& a, const Mismatch& b) { return a.place < b.place; });
  std::sort(lineage.rollbacks.begin(), lineage.rollbacks.end(),
            [](const Rollback& a, const Rollback& b) { return a.index < b.index; });
  Places places(lineage);
  Streamed st;
  COMMITLAB_RETURN_IF_ERROR(StreamCommits(file, &m, lineage, sink, &places, &st));
  const int64_t n = st.n;
  for (const Rollback& r : lineage.rollbacks) {
    COMMITLAB_RETURN_IF_ERROR(sink->Found({.kind = "parent_not_previous",
                                           .problem = false,
                                           .version = places.Of(r.id, n),
                                           .commits = {},
                                           .writer = st.last_writer,
                                           .message = fmt::format("snapshot {} became current again after {}: a "
                                                                  "rollback (the snapshot-log says so)",
                                                                  r.id, r.before)}));
  }
  if (m.format_version >= 2 && st.previous_seq && m.last_sequence_number > *st.previous_seq) {
    COMMITLAB_RETURN_IF_ERROR(sink->Found(
        {.kind = "gap",
         .problem = false,
         .version = n,
         .commits = {n},
         .writer = st.last_writer,
         .message =
             fmt::format("last-sequence-number is {} but the newest snapshot's is {}: sequence numbers {}..{} "
                         "belong to snapshots not in this metadata (expired, or on another branch)",
                         m.last_sequence_number, *st.previous_seq, *st.previous_seq + 1, m.last_sequence_number)}));
  }
  return sink->End({.partition_columns = m.partition_fields, .isolation = IcebergIsolation(m)});
}

}  // namespace

Status ReadIcebergMetadata(const std::string& path, int64_t memory_entries, Checker* sink) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return ReadOneFile(path, memory_entries, sink);
  return ReadIcebergChain(path, memory_entries, sink);
}

}  // namespace commitlab::sim::import::internal
