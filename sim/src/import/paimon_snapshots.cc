// Paimon's log (readers.h): snapshot/snapshot-N, one JSON object each (paimon-api's Snapshot.java;
// docs/docs/concepts/spec/snapshot.md: ids start at 1 and are continuous), with the EARLIEST and
// LATEST hint files beside them.
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <optional>

#include "json_input.h"
#include "readers.h"

namespace commitlab::sim::import::internal {
namespace {

namespace fs = std::filesystem;

// Snapshot.CURRENT_VERSION.
constexpr int64_t kCurrentVersion = 3;
constexpr size_t kMaxSnapshotBytes = size_t{16} << 20;
constexpr std::string_view kKinds[] = {"APPEND", "COMPACT", "OVERWRITE", "ANALYZE"};

struct Listing {
  std::string folder;
  int64_t first = 0;
  int64_t last = 0;
  int64_t count = 0;
  std::optional<int64_t> earliest_hint;
  std::optional<int64_t> latest_hint;
  int64_t temporary = 0;
  std::vector<std::string> other;
};

std::optional<int64_t> Number(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<int64_t> Hint(const std::string& folder, const char* name) {
  const std::string path = folder + "/" + name;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  Result<std::string> text = ReadSmallFile(path, 64);
  return text.ok() ? Number(*text) : std::nullopt;
}

Result<Listing> List(const std::string& path) {
  Listing l;
  std::error_code ec;
  l.folder = fs::is_directory(fs::path(path) / "snapshot", ec) ? (fs::path(path) / "snapshot").string() : path;
  fs::directory_iterator it(l.folder, ec);
  if (ec) return Status::InvalidArgument(fmt::format("{}: cannot list: {}", l.folder, ec.message()));
  for (const fs::directory_entry& e : it) {
    const std::string name = e.path().filename().string();
    std::optional<int64_t> id = name.starts_with("snapshot-") ? Number(name.substr(9)) : std::nullopt;
    if (id) {
      l.first = l.count == 0 ? *id : std::min(l.first, *id);
      l.last = l.count == 0 ? *id : std::max(l.last, *id);
      ++l.count;
    } else if (name.starts_with(".") && name.ends_with(".tmp")) {
      ++l.temporary;
    } else if (name != "EARLIEST" && name != "LATEST") {
      if (l.other.size() < 5) l.other.push_back(name);
    }
  }
  if (l.count == 0)
    return Status::InvalidArgument(fmt::format("{}: no snapshot-N files: not a Paimon table", l.folder));
  l.earliest_hint = Hint(l.folder, "EARLIEST");
  l.latest_hint = Hint(l.folder, "LATEST");
  if (l.count != l.last - l.first + 1) {
    for (int64_t id = l.first + 1; id < l.last; ++id) {
      const std::string file = fmt::format("{}/snapshot-{}", l.folder, id);
      if (!fs::exists(fs::symlink_status(file, ec)))
        return Bad(file, 0,
                   fmt::format("missing: the table holds snapshots {}..{} but not {} (snapshot ids are continuous: "
                               "Paimon's snapshot spec)",
                               l.first, l.last, id));
    }
  }
  return l;
}

// The fields commitlab reads, in Snapshot's JSON names; the rest of the object is kept as it is.
Status ReadSnapshot(const std::string& file, int64_t id, ImportedCommit* c) {
  COMMITLAB_ASSIGN_OR_RETURN(std::string text, ReadSmallFile(file, kMaxSnapshotBytes));
  COMMITLAB_ASSIGN_OR_RETURN(Json j, ParseJson(text, file));
  if (!j.is_object()) return Bad(file, 1, "not a JSON object");
  auto line = [&](const char* key) { return LineOfKey(text, key); };
  auto version = OptInt(j, "version", "snapshot", file, line("version"));
  auto sid = OptInt(j, "id", "snapshot", file, line("id"));
  auto user = OptString(j, "commitUser", "snapshot", file, line("commitUser"));
  auto identifier = OptInt(j, "commitIdentifier", "snapshot", file, line("commitIdentifier"));
  auto kind = OptString(j, "commitKind", "snapshot", file, line("commitKind"));
  auto time = OptInt(j, "timeMillis", "snapshot", file, line("timeMillis"));
  auto delta = OptInt(j, "deltaRecordCount", "snapshot", file, line("deltaRecordCount"));
  for (const Status& st : {version.status(), sid.status(), user.status(), identifier.status(), kind.status(),
                           time.status(), delta.status()})
    COMMITLAB_RETURN_IF_ERROR(st);
  if (version->value_or(1) > kCurrentVersion)
    return Bad(file, line("version"),
               fmt::format("snapshot version {}: this reader knows versions up to {} (Snapshot.CURRENT_VERSION)",
                           **version, kCurrentVersion));
  for (const auto& [field, present] : {std::pair{"id", sid->has_value()},
                                       {"commitUser", user->has_value()},
                                       {"commitIdentifier", identifier->has_value()},
                                       {"commitKind", kind->has_value()},
                                       {"timeMillis", time->has_value()}}) {
    if (!present) return Bad(file, 1, fmt::format("no {}: every snapshot has one (Snapshot.java)", field));
  }
  if (**sid != id) return Bad(file, line("id"), fmt::format("id {} in the file named snapshot-{}", **sid, id));
  if (std::find(std::begin(kKinds), std::end(kKinds), **kind) == std::end(kKinds))
    return Bad(file, line("commitKind"),
               fmt::format("commitKind \"{}\" is not one of APPEND, COMPACT, OVERWRITE, ANALYZE (Snapshot.CommitKind)",
                           **kind));
  c->version = id;
  c->file = file;
  c->time_ms = **time;
  c->user = **user;
  c->writer = SafeName(**user);
  c->identifier = **identifier;
  c->kind = **kind;
  c->operation = **kind;
  c->records = delta->value_or(0);
  c->details = j;
  return Status::OK();
}

// schema/schema-N of the latest snapshot: partition and primary keys, for the scenario.
void ReadSchema(const std::string& snapshot_folder, const ImportedCommit& last, TableFacts* facts) {
  if (!last.details.contains("schemaId") || !last.details["schemaId"].is_number_integer()) return;
  const fs::path file = fs::path(snapshot_folder).parent_path() /
                        fmt::format("schema/schema-{}", last.details["schemaId"].get<int64_t>());
  Result<std::string> text = ReadSmallFile(file.string(), kMaxSnapshotBytes);
  if (!text.ok()) return;
  Result<Json> j = ParseJson(*text, file.string());
  if (!j.ok() || !j->is_object()) return;
  for (const char* key : {"partitionKeys", "primaryKeys"}) {
    if (!j->contains(key) || !(*j)[key].is_array()) continue;
    for (const Json& k : (*j)[key]) {
      if (!k.is_string()) continue;
      if (std::string_view(key) == "partitionKeys") facts->partition_columns.push_back(k.get<std::string>());
      if (std::string_view(key) == "primaryKeys") facts->primary_key = true;
    }
  }
  facts->notes.push_back(fmt::format("schema from {}", file.filename().string()));
}

}  // namespace

Status ReadPaimonSnapshots(const std::string& path, Checker* sink) {
  COMMITLAB_ASSIGN_OR_RETURN(Listing listing, List(path));
  const Listing& l = listing;
  ImportSource source{.format = Format::kPaimon, .path = path, .log = l.folder, .first = l.first, .last = l.last};
  source.read.push_back(fmt::format("snapshots {}..{} ({} file(s))", l.first, l.last, l.count));
  if (l.first > 1) source.not_read.push_back(fmt::format("snapshots 1..{}: expired (not in the folder)", l.first - 1));
  source.not_read.push_back("manifest lists and manifests: which files each snapshot added or removed");
  if (l.temporary > 0)
    source.not_read.push_back(
        fmt::format("{} temporary file(s) of snapshot writes in flight or abandoned", l.temporary));
  for (const std::string& o : l.other) source.not_read.push_back(fmt::format("{}: not a snapshot file", o));
  COMMITLAB_RETURN_IF_ERROR(sink->Begin(source));
  ImportedCommit last;
  for (int64_t id = l.first; id <= l.last; ++id) {
    ImportedCommit c;
    COMMITLAB_RETURN_IF_ERROR(ReadSnapshot(fmt::format("{}/snapshot-{}", l.folder, id), id, &c));
    last.details = c.details;
    last.writer = c.writer;
    COMMITLAB_RETURN_IF_ERROR(sink->Commit(std::move(c)));
  }
  // SnapshotManager trusts a LATEST hint only when the snapshot after it does not exist; a hint
  // past the last file names a snapshot that was committed and is gone.
  if (l.latest_hint && *l.latest_hint > l.last) {
    COMMITLAB_RETURN_IF_ERROR(sink->Found(
        {.kind = "gap",
         .problem = true,
         .version = l.last,
         .commits = {l.last},
         .writer = last.writer,
         .message = fmt::format("the LATEST hint says {}, but the last snapshot file is snapshot-{}: snapshots {}..{} "
                                "were written and are gone",
                                *l.latest_hint, l.last, l.last + 1, *l.latest_hint)}));
  }
  TableFacts facts;
  ReadSchema(l.folder, last, &facts);
  return sink->End(facts);
}

}  // namespace commitlab::sim::import::internal
