// A folder of Iceberg metadata files read as the table's versions (iceberg_commits.h): each
// version is one commit, checked against the version before it.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <string>
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

// Whether a name VersionOf accepts is vN.metadata.json itself (no leading zero, no sign), which
// VersionFile::Name makes again from the version.
bool HadoopName(const std::string& name) {
  return name.size() > 1 && name[0] == 'v' && name[1] >= '0' && name[1] <= '9' && (name[1] != '0' || name[2] == '.');
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
  std::vector<int64_t> ids;  // its snapshots' ids, sorted: the table's live snapshots
  std::vector<std::pair<std::string, int64_t>> files_of_version;  // every file of `version`: name, updated
  std::string writer;

  bool Had(int64_t id) const { return std::binary_search(ids.begin(), ids.end(), id); }
};

// What the folder holds, counted in one pass over it: the metadata files themselves are taken a
// window at a time (Next), so a folder of any length is listed in bounded memory.
struct Listing {
  std::string folder;
  int64_t files = 0;
  int64_t first = 0;
  int64_t last = 0;
  int64_t avro = 0;
  std::vector<std::string> other;
};

bool Before(const VersionFile& a, const VersionFile& b) {
  return a.version != b.version ? a.version < b.version : a.Name() < b.Name();
}

// Calls `each` with every metadata file of the folder and `other` with every other name.
template <typename Each, typename Other>
Status Scan(const std::string& folder, Each each, Other other) {
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) return Status::InvalidArgument(fmt::format("{}: cannot list: {}", folder, ec.message()));
  for (const fs::directory_entry& e : it) {
    std::string name = e.path().filename().string();
    if (std::optional<int64_t> v = VersionOf(name)) {
      each(VersionFile{*v, HadoopName(name) ? std::string() : std::move(name)});
    } else {
      other(std::move(name));
    }
  }
  return Status::OK();
}

Result<Listing> List(const std::string& path) {
  Listing l;
  std::error_code ec;
  l.folder = fs::is_directory(fs::path(path) / "metadata", ec) ? (fs::path(path) / "metadata").string() : path;
  auto each = [&l](const VersionFile& f) {
    l.first = l.files == 0 ? f.version : std::min(l.first, f.version);
    l.last = l.files == 0 ? f.version : std::max(l.last, f.version);
    ++l.files;
  };
  auto other = [&l](std::string name) {
    if (name.ends_with(".avro")) {
      ++l.avro;
    } else {
      l.other.push_back(std::move(name));
    }
  };
  COMMITLAB_RETURN_IF_ERROR(Scan(l.folder, each, other));
  if (l.files == 0)
    return Status::InvalidArgument(
        fmt::format("{}: no metadata files (vN.metadata.json or NNNNN-<uuid>.metadata.json)", l.folder));
  std::sort(l.other.begin(), l.other.end());
  return l;
}

// The next `limit` metadata files after `after` (all from the first when absent), in order: one
// more pass over the folder, holding `limit` names at most.
Result<std::vector<VersionFile>> Next(const Listing& l, const std::optional<VersionFile>& after, int64_t limit) {
  std::vector<VersionFile> window;  // a max-heap by Before while it fills
  auto each = [&](VersionFile f) {
    if (after && !Before(*after, f)) return;
    if (static_cast<int64_t>(window.size()) == limit) {
      if (!Before(f, window.front())) return;
      std::pop_heap(window.begin(), window.end(), Before);
      window.pop_back();
    }
    window.push_back(std::move(f));
    std::push_heap(window.begin(), window.end(), Before);
  };
  COMMITLAB_RETURN_IF_ERROR(Scan(l.folder, each, [](const std::string&) {}));
  std::sort_heap(window.begin(), window.end(), Before);
  return window;
}

// The snapshots a version added (a transaction's chain, or a table first seen with its history),
// checked as they stream past: the first and the last are kept in full, the sequence-number
// findings until the version's commit is written; so a version of many snapshots costs no more
// than one.
struct Fresh {
  static constexpr int64_t kJoined = 8;  // operations named one by one; more are counted
  std::optional<IcebergSnapshot> first = {};
  std::optional<IcebergSnapshot> last = {};
  int64_t count = 0;
  bool holds_current = false;       // the version's current snapshot is one of them
  std::string operations = {};      // "append+overwrite" for the first kJoined
  std::optional<int64_t> seq = {};  // the sequence number before the next one
  std::vector<Finding> sequence_findings = {};

  void Add(IcebergSnapshot s, const IcebergMetadata& m, int64_t version, int64_t previous_version) {
    if (count < kJoined) operations += (operations.empty() ? "" : "+") + s.operation;
    ++count;
    holds_current = holds_current || s.id == m.current_snapshot_id;
    if (std::optional<Finding> f =
            SequenceFinding(m.format_version, {version, "", s.id, s.sequence}, seq, previous_version))
      sequence_findings.push_back(std::move(*f));
    seq = s.sequence;
    if (!first) first = s;
    last = std::move(s);
  }
  bool empty() const { return count == 0; }
  int64_t size() const { return count; }
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
  if (m.last_metadata_log) {
    const IcebergLogEntry& last = *m.last_metadata_log;
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
  if (!fresh.holds_current) {
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

// One version: its commit, then what it shows. `more`: a version follows, which needs this one's
// snapshot ids.
Status ReadVersion(Checker* sink, const Listing& l, const VersionFile& f, bool more, Previous* p, bool* renamed) {
  const std::string name = f.Name();
  const std::string path = (fs::path(l.folder) / name).string();
  IcebergMetadata m;
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergTop(path, &m));
  Fresh fresh{.seq = p->any && m.format_version >= 2 ? std::optional<int64_t>(p->last_sequence) : std::nullopt};
  std::vector<int64_t> ids;
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergSnapshots(path, &m, [&](IcebergSnapshot s) {
    if (more) ids.push_back(s.id);
    if (!p->Had(s.id)) fresh.Add(std::move(s), m, f.version, p->version);
    return Status::OK();
  }));
  COMMITLAB_ASSIGN_OR_RETURN(ImportedCommit c, VersionCommit(m, f, path, *p, fresh));
  const std::string writer = c.writer;
  COMMITLAB_RETURN_IF_ERROR(sink->Commit(std::move(c)));
  COMMITLAB_RETURN_IF_ERROR(ForkCheck(sink, m, f, *p, writer, renamed));
  COMMITLAB_RETURN_IF_ERROR(Lineage(sink, m, f, *p, fresh, writer));
  for (Finding& found : fresh.sequence_findings) {
    found.writer = writer;
    COMMITLAB_RETURN_IF_ERROR(sink->Found(found));
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
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  p->ids = std::move(ids);
  p->writer = writer;
  return Status::OK();
}

Status GapCheck(Checker* sink, const VersionFile& f, const Previous& p) {
  if (!p.any || f.version <= p.version + 1) return Status::OK();
  return sink->Found({.kind = "gap",
                      .problem = false,
                      .version = f.version,
                      .commits = {p.version, f.version},
                      .writer = p.writer,
                      .message = fmt::format("metadata version(s) {}..{} are not in the folder (removed by "
                                             "write.metadata.delete-after-commit, or lost)",
                                             p.version + 1, f.version - 1)});
}

ImportSource ChainSource(const std::string& path, const Listing& l) {
  ImportSource source{.format = Format::kIceberg, .path = path, .log = l.folder, .first = l.first, .last = l.last};
  source.read.push_back(
      fmt::format("{} metadata file(s), versions {}..{}: each version is a commit", l.files, l.first, l.last));
  if (l.avro > 0)
    source.not_read.push_back(
        fmt::format("{} Avro file(s): manifest lists and manifests (which files each snapshot "
                    "added or removed)",
                    l.avro));
  for (const std::string& o : l.other) source.not_read.push_back(fmt::format("{}: not a metadata file", o));
  return source;
}

}  // namespace

// A window of 4,096 names holds 160 KiB; a pass over a folder of 100,000 files costs about as much
// as reading one metadata file.
constexpr int64_t kListingWindow = int64_t{1} << 12;

Status ReadIcebergChain(const std::string& path, int64_t memory_entries, Checker* sink) {
  if (memory_entries <= 0) memory_entries = kListingWindow;
  COMMITLAB_ASSIGN_OR_RETURN(Listing l, List(path));
  COMMITLAB_RETURN_IF_ERROR(sink->Begin(ChainSource(path, l)));
  Previous p;
  bool renamed = false;
  std::optional<VersionFile> done;  // the last version read
  int64_t read = 0;
  for (;;) {
    COMMITLAB_ASSIGN_OR_RETURN(std::vector<VersionFile> window, Next(l, done, memory_entries));
    if (window.empty()) break;
    for (const VersionFile& f : window) {
      COMMITLAB_RETURN_IF_ERROR(GapCheck(sink, f, p));
      COMMITLAB_RETURN_IF_ERROR(ReadVersion(sink, l, f, ++read < l.files, &p, &renamed));
    }
    done = std::move(window.back());
  }
  // The listing counted files that are gone now (a writer with write.metadata.delete-after-commit
  // beside the import): nothing is left to read the table's facts from.
  if (!done) return Status::InvalidArgument(fmt::format("{}: its metadata files changed while being read", l.folder));
  IcebergMetadata last;
  COMMITLAB_RETURN_IF_ERROR(ReadIcebergTop((fs::path(l.folder) / done->Name()).string(), &last));
  TableFacts facts;
  facts.partition_columns = last.partition_fields;
  facts.isolation = IcebergIsolation(last);
  if (renamed)
    facts.notes.push_back(
        "the metadata-logs name files this folder holds under other names (renamed since they were "
        "written): each was matched to its file by its last-updated-ms");
  return sink->End(facts);
}

}  // namespace commitlab::sim::import::internal
