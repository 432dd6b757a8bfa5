// Listing a _delta_log folder and reading its commits in version order (readers.h, delta_log.h).
#include "delta_log.h"

#include <sys/stat.h>

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <utility>

#include "json_input.h"
#include "readers.h"

namespace commitlab::sim::import::internal {
namespace {

namespace fs = std::filesystem;

constexpr size_t kVersionDigits = 20;
constexpr size_t kOtherNamed = 5;

// The version a name starts with (its first 20 characters, all digits), else nullopt.
std::optional<int64_t> LeadingVersion(std::string_view name) {
  if (name.size() < kVersionDigits) return std::nullopt;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + kVersionDigits, v);
  if (ec != std::errc() || end != name.data() + kVersionDigits || v < 0) return std::nullopt;
  return v;
}

bool IsCheckpoint(std::string_view rest) {
  // .checkpoint.parquet, .checkpoint.I.N.parquet (multi-part), .checkpoint.UUID.json|parquet (V2):
  // FileNames.CheckpointFile in Delta.
  return rest.starts_with(".checkpoint.") && (rest.ends_with(".parquet") || rest.ends_with(".json"));
}

void Classify(DeltaListing* l, const std::string& name, bool is_dir) {
  const std::optional<int64_t> v = LeadingVersion(name);
  const std::string_view rest = v ? std::string_view(name).substr(kVersionDigits) : std::string_view();
  if (v && !is_dir && rest == ".json") {
    l->first = l->commits == 0 ? *v : std::min(l->first, *v);
    l->last = l->commits == 0 ? *v : std::max(l->last, *v);
    ++l->commits;
  } else if (v && !is_dir && IsCheckpoint(rest)) {
    if (!l->checkpoint || *v > *l->checkpoint) {
      l->older_checkpoints += l->checkpoint_parts;
      l->checkpoint = v;
      l->checkpoint_file = name;
      l->checkpoint_in_folder = true;
      l->checkpoint_parts = 0;
      l->v2_manifests.clear();
    }
    if (*v < *l->checkpoint) {
      ++l->older_checkpoints;
      return;
    }
    ++l->checkpoint_parts;
    if (rest.ends_with(".json")) l->v2_manifests.push_back(name);
  } else if (v && !is_dir && rest == ".crc") {
    ++l->crc;
  } else if (v && !is_dir && rest.ends_with(".compacted.json")) {
    ++l->compacted;
  } else if (name != "_last_checkpoint") {
    if (l->other.size() < kOtherNamed) l->other.push_back(is_dir ? name + "/" : name);
    ++l->other_count;
  }
}

// _last_checkpoint (Checkpoints.LAST_CHECKPOINT): the latest checkpoint's version, and for a V2
// checkpoint its sidecar files. Delta ignores one it cannot parse (Checkpoints.loadMetadataFromFile),
// and so does this.
void ReadLastCheckpoint(DeltaListing* l, std::vector<std::string>* notes) {
  const std::string path = l->log + "/_last_checkpoint";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return;
  Result<std::string> text = ReadSmallFile(path, size_t{16} << 20);
  Result<Json> j = text.ok() ? ParseJson(*text, path) : Result<Json>(text.status());
  if (!j.ok() || !j->is_object() || !(*j).contains("version") || !(*j)["version"].is_number_integer()) {
    notes->push_back("_last_checkpoint: not a checkpoint pointer, ignored (as Delta's Checkpoints does)");
    return;
  }
  const int64_t v = (*j)["version"].get<int64_t>();
  if (j->contains("v2Checkpoint") && (*j)["v2Checkpoint"].is_object()) {
    const Json& v2 = (*j)["v2Checkpoint"];
    if (v2.contains("sidecarFiles") && v2["sidecarFiles"].is_array())
      l->v2_sidecars = static_cast<int64_t>(v2["sidecarFiles"].size());
  }
  if (l->checkpoint && *l->checkpoint >= v) return;
  l->checkpoint = v;
  l->checkpoint_in_folder = false;
  l->checkpoint_file.clear();
  l->v2_manifests.clear();
}

std::string LogFolder(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (p.filename() == "_delta_log" || (p.filename().empty() && p.parent_path().filename() == "_delta_log")) return path;
  return (p / "_delta_log").string();
}

// What was not read, each with why.
void DescribeUnread(const DeltaListing& l, ImportSource* s, std::vector<std::string> notes) {
  if (l.first > 0) {
    s->not_read.push_back(
        fmt::format("versions 0..{}: not in the log (log cleanup removed them){}", l.first - 1,
                    l.checkpoint ? fmt::format("; the checkpoint at version {} summarises them", *l.checkpoint) : ""));
  }
  if (l.checkpoint) {
    const std::string what =
        !l.checkpoint_in_folder ? "named by _last_checkpoint, not in the folder"
        : !l.v2_manifests.empty()
            ? fmt::format("{}, a V2 checkpoint manifest (JSON, not a commit){}", l.v2_manifests.front(),
                          l.v2_sidecars > 0 ? fmt::format(" with {} Parquet sidecar(s)", l.v2_sidecars) : "")
            : l.checkpoint_file;
    s->not_read.push_back(
        fmt::format("the checkpoint at version {} ({}): the table's state, in Parquet; {}", *l.checkpoint, what,
                    *l.checkpoint < l.first   ? "the JSON commits after it were read"
                    : *l.checkpoint >= l.last ? "the JSON commits up to it were read instead"
                                              : "the JSON commits before and after it were read instead"));
  }
  if (l.older_checkpoints > 0)
    s->not_read.push_back(fmt::format("{} checkpoint file(s) of earlier versions", l.older_checkpoints));
  if (l.crc > 0)
    s->not_read.push_back(fmt::format("{} .crc file(s): checksums of the table's state, not commits", l.crc));
  if (l.compacted > 0)
    s->not_read.push_back(
        fmt::format("{} .compacted.json file(s): log compactions, whose commits are read one by one", l.compacted));
  if (l.other_count > 0) {
    std::string names;
    for (const std::string& n : l.other) names += (names.empty() ? "" : ", ") + n;
    if (l.other_count > static_cast<int64_t>(l.other.size()))
      names += fmt::format(" and {} more", l.other_count - static_cast<int64_t>(l.other.size()));
    s->not_read.push_back(fmt::format("not log files: {}", names));
  }
  for (std::string& n : notes) s->not_read.push_back(std::move(n));
}

}  // namespace

std::string DeltaCommitFileName(int64_t version) { return fmt::format("{:020d}.json", version); }

Result<DeltaListing> ListDeltaLog(const std::string& path) {
  DeltaListing l;
  l.log = LogFolder(path);
  std::error_code ec;
  fs::directory_iterator it(l.log, ec);
  if (ec) return Status::InvalidArgument(fmt::format("{}: cannot list: {}", l.log, ec.message()));
  for (const fs::directory_entry& e : it) {
    std::error_code type_ec;
    Classify(&l, e.path().filename().string(), e.is_directory(type_ec));
  }
  if (l.commits == 0)
    return Status::InvalidArgument(
        fmt::format("{}: no commit files (NNNNNNNNNNNNNNNNNNNN.json): not a Delta log", l.log));
  if (l.commits != l.last - l.first + 1) {
    // Delta refuses such a log: "Versions (...) are not contiguous" (DELTA_VERSIONS_NOT_CONTIGUOUS).
    for (int64_t v = l.first + 1; v < l.last; ++v) {
      const std::string file = l.log + "/" + DeltaCommitFileName(v);
      struct stat st {};
      if (::stat(file.c_str(), &st) != 0) {
        return Bad(file, 0,
                   fmt::format("missing: the log holds versions {}..{} but not {} (Delta refuses a log whose "
                               "versions are not contiguous: DELTA_VERSIONS_NOT_CONTIGUOUS)",
                               l.first, l.last, v));
      }
    }
  }
  return l;
}

Status ReadDeltaLog(const std::string& path, Checker* sink) {
  COMMITLAB_ASSIGN_OR_RETURN(DeltaListing listing, ListDeltaLog(path));
  const DeltaListing& l = listing;
  std::vector<std::string> notes;
  ReadLastCheckpoint(&listing, &notes);
  ImportSource source{.format = Format::kDelta, .path = path, .log = l.log, .first = l.first, .last = l.last};
  source.read.push_back(fmt::format("the JSON commits {}..{} ({} file(s))", l.first, l.last, l.commits));
  DescribeUnread(l, &source, std::move(notes));
  COMMITLAB_RETURN_IF_ERROR(sink->Begin(source));
  sink->set_complete(l.first == 0);
  DeltaTable table;
  for (int64_t v = l.first; v <= l.last; ++v) {
    ImportedCommit c;
    COMMITLAB_RETURN_IF_ERROR(ReadDeltaCommit(l.log, v, &table, &c));
    const std::string writer = c.writer;
    COMMITLAB_RETURN_IF_ERROR(sink->Commit(std::move(c)));
    // A log that starts after version 0 needs a checkpoint at or after the version before its first
    // commit, or nobody can say what the table held (Delta: SnapshotManagement.getLogSegmentForVersion).
    if (v == l.first && l.first > 0 && (!l.checkpoint || *l.checkpoint < l.first - 1)) {
      COMMITLAB_RETURN_IF_ERROR(sink->Found(
          {.kind = "gap",
           .problem = true,
           .version = v,
           .commits = {v},
           .writer = writer,
           .message = fmt::format("the log starts at version {} and no checkpoint at version {} or later holds what "
                                  "versions 0..{} left: the table before version {} cannot be known",
                                  l.first, l.first - 1, l.first - 1, l.first)}));
    }
  }
  TableFacts facts{.partition_columns = table.partition_columns, .isolation = table.isolation};
  return sink->End(facts);
}

}  // namespace commitlab::sim::import::internal
