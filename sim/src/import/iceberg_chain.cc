// A folder of Iceberg metadata files read as the table's versions (iceberg_commits.h): each
// version is one commit, checked against the version before it.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "iceberg_commits.h"
#include "json_input.h"

namespace commitlab::sim::import::internal {
namespace {

namespace fs = std::filesystem;

// A metadata file of the folder. A vN.metadata.json name is not kept (empty `name`): it is made
// again from the version, so a folder of Hadoop-table versions is listed in 8 bytes a file.
struct VersionFile {
  int64_t version = 0;
  std::string name;

  std::string Name() const { return name.empty() ? fmt::format("v{}.metadata.json", version) : name; }
};

// The version a metadata file's name gives: vN.metadata.json (HadoopTableOperations) or
// NNNNN-<uuid>.metadata.json (BaseMetastoreTableOperations.newTableMetadataFilePath).
std::optional<int64_t> VersionOf(const std::string& name) {
  if (!name.ends_with(".metadata.json")) return std::nullopt;
  const size_t start = name.starts_with("v") ? 1 : 0;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(name.data() + start, name.data() + name.size(), v);
  if (ec != std::errc() || end == name.data() + start) return std::nullopt;
  const std::string_view rest(end, static_cast<size_t>(name.data() + name.size() - end));
  if (start == 1 ? rest != ".metadata.json" : !rest.starts_with("-")) return std::nullopt;
  return v;
}

// What one version left behind, for the next one to be checked against.
struct Previous {
  bool any = false;
  int64_t version = -1;
  std::string name;
  int64_t updated_ms = 0;
  int64_t current = -1;
  int64_t last_sequence = 0;
  int schema = 0;
  std::map<std::string, std::string> properties;
  std::unordered_set<int64_t> ids;
  std::vector<std::pair<std::string, int64_t>> files_of_version;  // every file of `version`: name, updated
  std::string writer;
};

struct Listing {
  std::string folder;
  std::vector<VersionFile> files;
  int64_t avro = 0;
  std::vector<std::string> other;
};

Result<Listing> List(const std::string& path) {
  Listing l;
  std::error_code ec;
  l.folder = fs::is_directory(fs::path(path) / "metadata", ec) ? (fs::path(path) / "metadata").string() : path;
  fs::directory_iterator it(l.folder, ec);
  if (ec) return Status::InvalidArgument(fmt::format("{}: cannot list: {}", l.folder, ec.message()));
  for (const fs::directory_entry& e : it) {
    const std::string name = e.path().filename().string();
    if (std::optional<int64_t> v = VersionOf(name)) {
      const bool hadoop = name == fmt::format("v{}.metadata.json", *v);
      l.files.push_back({*v, hadoop ? std::string() : name});
    } else if (name.ends_with(".avro")) {
      ++l.avro;
    } else {
      l.other.push_back(name);
    }
  }
  if (l.files.empty())
    return Status::InvalidArgument(
        fmt::format("{}: no metadata files (vN.metadata.json or NNNNN-<uuid>.metadata.json)", l.folder));
  std::sort(l.files.begin(), l.files.end(), [](const VersionFile& a, const VersionFile& b) {
    return a.version != b.version ? a.version < b.version : a.Name() < b.Name();
  });
  std::sort(l.other.begin(), l.other.end());
  return l;
}

// The snapshots a version added (a transaction's chain, or a table first seen with its history):
// the first and the last in full, every one as (id, sequence number) for the checks, so a version
// of many snapshots costs 16 bytes each.
struct Fresh {
  static constexpr int64_t kJoined = 8;  // operations named one by one; more are counted
  std::optional<IcebergSnapshot> first = {};
  std::optional<IcebergSnapshot> last = {};
  std::vector<std::pair<int64_t, int64_t>> ids = {};  // id, sequence number, in file order
  std::string operations = {};                        // "append+overwrite" for the first kJoined

  void Add(IcebergSnapshot s) {
    if (static_cast<int64_t>(ids.size()) < kJoined) operations += (operations.empty() ? "" : "+") + s.operation;
    ids.emplace_back(s.id, s.sequence);
    if (!first) first = s;
    last = std::move(s);
  }
  bool empty() const { return ids.empty(); }
  int64_t size() const { return static_cast<int64_t>(ids.size()); }
  bool Contains(int64_t id) const {
    return std::any_of(ids.begin(), ids.end(), [id](const auto& e) { return e.first == id; });
  }
};

// What a version without a new snapshot changed.
std::string MetadataOperation(const IcebergMetadata& m, const Previous& p) {
  if (!p.any) return "create table";
  std::vector<std::string> what;
  if (m.current_schema_id != p.schema) what.push_back(fmt::format("schema {} -> {}", p.schema, m.current_schema_id));
  if (m.current_snapshot_id != p.current)
    what.push_back(fmt::format("current snapshot {} -> {}", p.current, m.current_snapshot_id));
  if (m.properties != p.properties) what.push_back("properties");
  if (m.snapshots < static_cast<int64_t>(p.ids.size())) what.push_back("snapshots expired");
  if (what.empty()) return "metadata update";
  std::string out;
  for (const std::string& w : what) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// The version's metadata-log names the file it was written on: one of the previous version's
// files, matched by name or, for a file renamed since, by its last-updated-ms.
Status ForkCheck(Checker* sink, const IcebergMetadata& m, const VersionFile& f, const Previous& p,
                 const std::string& writer, bool* renamed) {
  if (!p.any || p.version < f.version - 1) return Status::OK();
  std::string named = "nothing (an empty metadata-log)";
  if (!m.metadata_log.empty()) {
    const IcebergLogEntry& last = m.metadata_log.back();
    const std::string base = fs::path(last.file).filename().string();
    named = base;
    for (const auto& [name, updated] : p.files_of_version) {
      if (p.version != f.version - 1) break;
      if (name == base) return Status::OK();
      if (updated == last.timestamp_ms) {
        *renamed = true;
        return Status::OK();
      }
    }
  }
  const bool same_version = p.version == f.version;
  return sink->Found(
      {.kind = "metadata_log_fork",
       .problem = true,
       .version = f.version,
       .commits = {p.version, f.version},
       .writer = writer,
       .message = same_version
                      ? fmt::format("{} and {} are both metadata version {}: two commits wrote the same version; {} "
                                    "names {} as the version it was written on",
                                    p.name, f.Name(), f.version, f.Name(), named)
                      : fmt::format("{}'s metadata-log says it was written on {}, not on version {} ({}): both were "
                                    "written on one base, and one's changes are not in the other",
                                    f.Name(), named, p.version, p.name)});
}

Status Lineage(Checker* sink, const IcebergMetadata& m, const VersionFile& f, const Previous& p, const Fresh& fresh,
               const std::string& writer) {
  if (!p.any || m.current_snapshot_id == p.current || m.current_snapshot_id < 0) return Status::OK();
  if (!fresh.Contains(m.current_snapshot_id)) {
    return sink->Found({.kind = "parent_not_previous",
                        .problem = false,
                        .version = f.version,
                        .commits = {p.version, f.version},
                        .writer = writer,
                        .message = fmt::format("version {} made the older snapshot {} current again (it was {}): a "
                                               "rollback",
                                               f.version, m.current_snapshot_id, p.current)});
  }
  // The new snapshots of one version chain onto each other (a transaction); the first builds on
  // the previous version's current snapshot.
  const std::optional<int64_t> expected = p.current < 0 ? std::nullopt : std::optional<int64_t>(p.current);
  const IcebergSnapshot& front = *fresh.first;
  if (front.parent == expected) return Status::OK();
  return sink->Found(
      {.kind = "parent_not_previous",
       .problem = true,
       .version = f.version,
       .commits = {p.version, f.version},
       .writer = writer,
       .message = fmt::format("snapshot {} of version {} has parent {}, but version {}'s current snapshot was {}: it "
                              "was built without that snapshot's changes",
                              front.id, f.version, front.parent ? std::to_string(*front.parent) : "none", p.version,
                              p.current < 0 ? "none" : std::to_string(p.current))});
}

Result<ImportedCommit> VersionCommit(const IcebergMetadata& m, const VersionFile& f, const std::string& path,
                                     const Previous& p, const Fresh& fresh) {
  ImportedCommit c;
  if (fresh.empty()) {
    c.operation = MetadataOperation(m, p);
    c.kind = "METADATA";
    c.writer = "metadata";
    c.details = Json::object();
  } else {
    c = SnapshotCommit(*fresh.last, f.version, path, m);
    if (fresh.size() > 1) {
      c.operation = fresh.operations;
      if (fresh.size() > Fresh::kJoined) c.operation += fmt::format("+... ({} snapshots)", fresh.size());
      c.details["snapshots"] = fresh.size();
    }
  }
  c.version = f.version;
  c.file = path;
  c.time_ms = m.last_updated_ms;
  c.metadata_change = p.any && (m.current_schema_id != p.schema || m.properties != p.properties);
  c.details["metadata-file"] = f.Name();
  c.details["last-updated-ms"] = m.last_updated_ms;
  c.details["current-schema-id"] = m.current_schema_id;
  if (p.any && m.current_schema_id != p.schema)
    c.details["schema-change"] = {{"from", p.schema}, {"to", m.current_schema_id}};
  return c;
}

Status ReadVersion(Checker* sink, const Listing& l, const VersionFile& f, Previous* p, bool* renamed) {
  const std::string name = f.Name();
  const std::string path = (fs::path(l.folder) / name).string();
  IcebergMetadata m;
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergTop(path, &m));
  Fresh fresh;
  std::unordered_set<int64_t> ids;
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergSnapshots(path, &m, [&](IcebergSnapshot s) {
    ids.insert(s.id);
    if (p->ids.count(s.id) == 0) fresh.Add(std::move(s));
    return Status::OK();
  }));
  COMMITLAB_ASSIGN_OR_RETURN(ImportedCommit c, VersionCommit(m, f, path, *p, fresh));
  const std::string writer = c.writer;
  COMMITLAB_RETURN_IF_ERROR(sink->Commit(std::move(c)));
  COMMITLAB_RETURN_IF_ERROR(ForkCheck(sink, m, f, *p, writer, renamed));
  COMMITLAB_RETURN_IF_ERROR(Lineage(sink, m, f, *p, fresh, writer));
  std::optional<int64_t> seq =
      p->any && m.format_version >= 2 ? std::optional<int64_t>(p->last_sequence) : std::nullopt;
  for (const auto& [id, sequence] : fresh.ids) {
    COMMITLAB_RETURN_IF_ERROR(
        SequenceChecks(sink, m.format_version, {f.version, writer, id, sequence}, seq, p->version));
    seq = sequence;
  }
  if (p->version != f.version) p->files_of_version.clear();
  p->files_of_version.emplace_back(name, m.last_updated_ms);
  p->any = true;
  p->version = f.version;
  p->name = name;
  p->updated_ms = m.last_updated_ms;
  p->current = m.current_snapshot_id;
  p->last_sequence = m.last_sequence_number;
  p->schema = m.current_schema_id;
  p->properties = std::move(m.properties);
  p->ids = std::move(ids);
  p->writer = writer;
  return Status::OK();
}

}  // namespace

Status ReadIcebergChain(const std::string& path, Checker* sink) {
  COMMITLAB_ASSIGN_OR_RETURN(Listing listing, List(path));
  const Listing& l = listing;
  ImportSource source{.format = Format::kIceberg,
                      .path = path,
                      .log = l.folder,
                      .first = l.files.front().version,
                      .last = l.files.back().version};
  source.read.push_back(fmt::format("{} metadata file(s), versions {}..{}: each version is a commit", l.files.size(),
                                    l.files.front().version, l.files.back().version));
  if (l.avro > 0)
    source.not_read.push_back(
        fmt::format("{} Avro file(s): manifest lists and manifests (which files each snapshot "
                    "added or removed)",
                    l.avro));
  for (const std::string& o : l.other) source.not_read.push_back(fmt::format("{}: not a metadata file", o));
  COMMITLAB_RETURN_IF_ERROR(sink->Begin(source));
  Previous p;
  bool renamed = false;
  TableFacts facts;
  for (const VersionFile& f : l.files) {
    if (p.any && f.version > p.version + 1) {
      COMMITLAB_RETURN_IF_ERROR(sink->Found({.kind = "gap",
                                             .problem = false,
                                             .version = f.version,
                                             .commits = {p.version, f.version},
                                             .writer = p.writer,
                                             .message = fmt::format("metadata version(s) {}..{} are not in the folder "
                                                                    "(removed by write.metadata.delete-after-commit, "
                                                                    "or lost)",
                                                                    p.version + 1, f.version - 1)}));
    }
    COMMITLAB_RETURN_IF_ERROR(ReadVersion(sink, l, f, &p, &renamed));
  }
  IcebergMetadata last;
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergTop((fs::path(l.folder) / l.files.back().Name()).string(), &last));
  facts.partition_columns = last.partition_fields;
  facts.isolation = IcebergIsolation(last);
  if (renamed)
    facts.notes.push_back(
        "the metadata-logs name files this folder holds under other names (renamed since they were "
        "written): each was matched to its file by its last-updated-ms");
  return sink->End(facts);
}

}  // namespace commitlab::sim::import::internal
