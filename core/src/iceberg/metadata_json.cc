#include "commitlab/core/iceberg/metadata_json.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/iceberg/apply.h"
#include "json_parse.h"
#include "json_write.h"

namespace commitlab::iceberg {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr int64_t kFormatVersion = 2;

// ---- writing ----

ordered_json ValueJson(const Value& v) {
  if (const int64_t* i = std::get_if<int64_t>(&v)) return *i;
  return std::get<std::string>(v);
}

std::string_view ContentName(FileContent c) {
  switch (c) {
    case FileContent::kData: return "data";
    case FileContent::kPositionDeletes: return "position-deletes";
    case FileContent::kEqualityDeletes: return "equality-deletes";
  }
  return "?";
}

ordered_json FileJson(const IcebergDataFile& f) {
  ordered_json out = {{"path", f.path()}, {"content", ContentName(f.content)}};
  if (!f.file.partition.empty()) out["partition"] = f.file.partition;
  out["record-count"] = f.file.row_count;
  if (!f.rows.empty()) {
    ordered_json rows = ordered_json::array();
    for (const Row& r : f.rows) {
      ordered_json row = ordered_json::object();
      for (const auto& [column, value] : r) row[column] = ValueJson(value);
      rows.push_back(std::move(row));
    }
    out["rows"] = std::move(rows);
  }
  if (!f.equality_columns.empty()) out["equality-columns"] = f.equality_columns;
  if (!f.positions.empty()) {
    ordered_json positions = ordered_json::array();
    for (const PositionDelete& p : f.positions) positions.push_back({{"path", p.path}, {"pos", p.pos}});
    out["positions"] = std::move(positions);
  }
  return out;
}

ordered_json FilesJson(const std::vector<FileRef>& files) {
  ordered_json out = ordered_json::array();
  for (const FileRef& f : files) out.push_back(FileJson(*f));
  return out;
}

ordered_json FilesJson(const FileSet& files) {
  ordered_json out = ordered_json::array();
  for (const auto& entry : files) out.push_back(FileJson(*entry.second));
  return out;
}

// Each path once, in order: a path live twice goes at once.
ordered_json PathsJson(const std::vector<FileRef>& files) {
  ordered_json out = ordered_json::array();
  std::set<std::string> seen;
  for (const FileRef& f : files)
    if (seen.insert(f->path()).second) out.push_back(f->path());
  return out;
}

ordered_json ManifestJson(const ManifestFile& m) {
  return {{"manifest-path", m.path}, {"added-snapshot-id", m.added_snapshot_id}, {"files", m.files}};
}

ordered_json HeaderJson(const Snapshot& s) {
  ordered_json out = {{"snapshot-id", s.snapshot_id}};
  out["parent-snapshot-id"] = s.parent_id ? ordered_json(*s.parent_id) : ordered_json(nullptr);
  out["sequence-number"] = s.sequence_number;
  out["timestamp-ms"] = s.timestamp_ms;
  out["operation"] = DataOperationName(s.operation);
  out["committed-by"] = s.committed_by;
  out["schema-id"] = s.schema_id;
  out["manifest-list"] = s.manifest_list;
  ordered_json summary = ordered_json::object();
  for (const auto& [k, v] : s.summary) summary[k] = v;
  out["summary"] = std::move(summary);
  out["added-files"] = FilesJson(s.added_files);
  out["added-delete-files"] = FilesJson(s.added_delete_files);
  return out;
}

// The manifest `s` wrote, when it wrote one: its last, if the parent did not have it.
ManifestRef AddedManifest(const Snapshot& s, const Snapshot* parent) {
  if (s.manifests.empty() || s.manifests.back()->added_snapshot_id != s.snapshot_id) return nullptr;
  if (parent != nullptr)
    for (const ManifestRef& m : parent->manifests)
      if (m->path == s.manifests.back()->path) return nullptr;
  return s.manifests.back();
}

// The same paths, in the same order, with the same data sequence numbers.
bool SameEntries(const FileSet& a, const FileSet& b) {
  if (a.size() != b.size()) return false;
  for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y)
    if (x->first != y->first || x.sequence() != y.sequence()) return false;
  return true;
}

std::vector<std::string> Paths(const std::vector<FileRef>& files) {
  std::vector<std::string> out;
  for (const FileRef& f : files) out.push_back(f->path());
  return out;
}

std::vector<std::string> Paths(const PersistentVector<ManifestRef>& manifests) {
  std::vector<std::string> out;
  for (const ManifestRef& m : manifests) out.push_back(m->path);
  return out;
}

const FileSet& DeletesOf(const Snapshot& s) {
  static const FileSet* const kEmpty = new FileSet();
  return s.live_deletes != nullptr ? *s.live_deletes : *kEmpty;
}

// Each path of `files` once, with its data sequence number, in path order.
ordered_json SequencesJson(const FileSet& files) {
  ordered_json out = ordered_json::array();
  std::string_view last;
  for (auto it = files.begin(); it != files.end(); ++it) {
    if (!out.empty() && it->first == last) continue;  // a path added twice has one number
    last = it->first;
    out.push_back({it->first, it.sequence()});
  }
  return out;
}

// Expands each removed path to every entry the parent has for it, as erasing a path does.
std::vector<FileRef> Expand(const std::vector<std::string>& paths, const FileSet& live) {
  std::vector<FileRef> out;
  for (const std::string& p : paths) {
    auto [lo, hi] = live.equal_range(p);
    for (auto it = lo; it != hi; ++it) out.push_back(it->second);
  }
  return out;
}

std::vector<std::string> UniquePaths(const std::vector<FileRef>& files) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const FileRef& f : files)
    if (seen.insert(f->path()).second) out.push_back(f->path());
  return out;
}

// Whether BuildSnapshot on `parent` with the change as written gives `s` back (paths compared):
// then `s` is written as its change.
bool Derivable(const Snapshot& s, const Snapshot* parent) {
  if (s.parent_id.has_value() != (parent != nullptr)) return false;
  Snapshot change = s;
  static const FileSet* const kEmpty = new FileSet();
  change.deleted_files = Expand(UniquePaths(s.deleted_files), parent != nullptr ? *parent->live_files : *kEmpty);
  change.removed_delete_files =
      Expand(UniquePaths(s.removed_delete_files), parent != nullptr ? DeletesOf(*parent) : *kEmpty);
  if (Paths(change.deleted_files) != Paths(s.deleted_files) ||
      Paths(change.removed_delete_files) != Paths(s.removed_delete_files))
    return false;
  std::shared_ptr<Snapshot> rebuilt = BuildSnapshot(parent, std::move(change), AddedManifest(s, parent));
  return SameEntries(*rebuilt->live_files, *s.live_files) && SameEntries(DeletesOf(*rebuilt), DeletesOf(s)) &&
         Paths(rebuilt->manifests) == Paths(s.manifests);
}

ordered_json ChangeJson(const Snapshot& s, const Snapshot* parent) {
  ordered_json out = HeaderJson(s);
  out["deleted-files"] = PathsJson(s.deleted_files);
  out["removed-delete-files"] = PathsJson(s.removed_delete_files);
  const ManifestRef added = AddedManifest(s, parent);
  out["added-manifest"] = added != nullptr ? ManifestJson(*added) : ordered_json(nullptr);
  return out;
}

// A snapshot with everything a reader needs, for one whose parent is not at hand.
ordered_json WholeJson(const Snapshot& s) {
  ordered_json out = HeaderJson(s);
  out["deleted-files"] = FilesJson(s.deleted_files);
  out["removed-delete-files"] = FilesJson(s.removed_delete_files);
  ordered_json manifests = ordered_json::array();
  for (const ManifestRef& m : s.manifests) manifests.push_back(ManifestJson(*m));
  out["manifests"] = std::move(manifests);
  out["live-files"] = FilesJson(*s.live_files);
  out["live-deletes"] = FilesJson(DeletesOf(s));
  out["file-sequence"] = SequencesJson(*s.live_files);
  out["delete-sequence"] = SequencesJson(DeletesOf(s));
  return out;
}

// ---- reading ----

// Reads fields of nested objects, keeping the first error with where it was
// ("snapshots[2].added-files[0]: field "path" is missing"); later reads then do nothing.
class Reader {
 public:
  bool ok() const { return error_.empty(); }
  Status Error(std::string_view where) const { return Status::Corruption(fmt::format("{}: {}", where, error_)); }
  void Fail(std::string_view at, std::string_view why) {
    if (ok()) error_ = at.empty() ? std::string(why) : fmt::format("{}: {}", at, why);
  }

  const json* Field(const json& obj, std::string_view at, std::string_view key) {
    if (!ok()) return nullptr;
    if (!obj.is_object()) {
      Fail(at, "expected an object");
      return nullptr;
    }
    auto it = obj.find(key);
    if (it == obj.end()) {
      Fail(at, fmt::format("field {} is missing", json_io::Quote(key)));
      return nullptr;
    }
    return &*it;
  }
  int64_t Int(const json& obj, std::string_view at, std::string_view key) {
    const json* v = Field(obj, at, key);
    if (v == nullptr) return 0;
    if (!v->is_number_integer()) {
      Fail(at, fmt::format("field {} must be an integer", json_io::Quote(key)));
      return 0;
    }
    return v->get<int64_t>();
  }
  std::optional<int64_t> OptionalInt(const json& obj, std::string_view at, std::string_view key) {
    const json* v = Field(obj, at, key);
    if (v == nullptr || v->is_null()) return std::nullopt;
    return Int(obj, at, key);
  }
  int32_t Int32(const json& obj, std::string_view at, std::string_view key) {
    const int64_t v = Int(obj, at, key);
    if (v < INT32_MIN || v > INT32_MAX) Fail(at, fmt::format("field {} is out of range", json_io::Quote(key)));
    return static_cast<int32_t>(v);
  }
  std::string String(const json& obj, std::string_view at, std::string_view key) {
    const json* v = Field(obj, at, key);
    if (v == nullptr) return {};
    if (!v->is_string()) {
      Fail(at, fmt::format("field {} must be a string", json_io::Quote(key)));
      return {};
    }
    return v->get<std::string>();
  }
  // The field's elements (none after an error).
  const json& Array(const json& obj, std::string_view at, std::string_view key) {
    static const json* const kEmpty = new json(json::array());
    const json* v = Field(obj, at, key);
    if (v == nullptr) return *kEmpty;
    if (!v->is_array()) {
      Fail(at, fmt::format("field {} must be an array", json_io::Quote(key)));
      return *kEmpty;
    }
    return *v;
  }
  std::vector<std::string> Strings(const json& obj, std::string_view at, std::string_view key) {
    std::vector<std::string> out;
    for (const json& v : Array(obj, at, key)) {
      if (!v.is_string()) {
        Fail(at, fmt::format("field {} must hold strings", json_io::Quote(key)));
        return {};
      }
      out.push_back(v.get<std::string>());
    }
    return out;
  }

 private:
  std::string error_;
};

std::string At(std::string_view at, std::string_view key, size_t i) {
  return at.empty() ? fmt::format("{}[{}]", key, i) : fmt::format("{}.{}[{}]", at, key, i);
}

std::optional<FileContent> ParseContent(std::string_view s) {
  if (s == "data") return FileContent::kData;
  if (s == "position-deletes") return FileContent::kPositionDeletes;
  if (s == "equality-deletes") return FileContent::kEqualityDeletes;
  return std::nullopt;
}

std::optional<DataOperation> ParseOperation(std::string_view s) {
  for (DataOperation op :
       {DataOperation::kAppend, DataOperation::kReplace, DataOperation::kOverwrite, DataOperation::kDelete})
    if (DataOperationName(op) == s) return op;
  return std::nullopt;
}

FileRef ReadFile(Reader& r, const json& j, const std::string& at) {
  auto f = std::make_shared<IcebergDataFile>();
  f->file.name = r.String(j, at, "path");
  const std::string content = r.String(j, at, "content");
  if (!r.ok()) return nullptr;
  if (std::optional<FileContent> c = ParseContent(content)) {
    f->content = *c;
  } else {
    r.Fail(at, fmt::format("field \"content\" has unknown value {}", json_io::Quote(content)));
    return nullptr;
  }
  if (j.contains("partition")) f->file.partition = r.String(j, at, "partition");
  f->file.row_count = r.Int(j, at, "record-count");
  if (j.contains("rows")) {
    const json& rows = r.Array(j, at, "rows");
    for (size_t i = 0; i < rows.size() && r.ok(); ++i) {
      if (!rows[i].is_object()) {
        r.Fail(At(at, "rows", i), "expected an object");
        break;
      }
      Row row;
      for (const auto& [column, value] : rows[i].items()) {
        if (value.is_number_integer()) {
          row.emplace(column, value.get<int64_t>());
        } else if (value.is_string()) {
          row.emplace(column, value.get<std::string>());
        } else {
          r.Fail(At(at, "rows", i), fmt::format("column {} must be an integer or a string", json_io::Quote(column)));
          break;
        }
      }
      f->rows.push_back(std::move(row));
    }
  }
  if (j.contains("equality-columns")) f->equality_columns = r.Strings(j, at, "equality-columns");
  if (j.contains("positions")) {
    const json& positions = r.Array(j, at, "positions");
    for (size_t i = 0; i < positions.size() && r.ok(); ++i) {
      const std::string p_at = At(at, "positions", i);
      PositionDelete p;
      p.path = r.String(positions[i], p_at, "path");
      p.pos = r.Int(positions[i], p_at, "pos");
      f->positions.push_back(std::move(p));
    }
  }
  return r.ok() ? f : nullptr;
}

std::vector<FileRef> ReadFiles(Reader& r, const json& obj, const std::string& at, std::string_view key) {
  std::vector<FileRef> out;
  const json& files = r.Array(obj, at, key);
  for (size_t i = 0; i < files.size() && r.ok(); ++i) {
    FileRef f = ReadFile(r, files[i], At(at, key, i));
    if (f != nullptr) out.push_back(std::move(f));
  }
  return out;
}

ManifestRef ReadManifest(Reader& r, const json& j, const std::string& at) {
  auto m = std::make_shared<ManifestFile>();
  m->path = r.String(j, at, "manifest-path");
  m->added_snapshot_id = r.Int(j, at, "added-snapshot-id");
  m->files = r.Strings(j, at, "files");
  return r.ok() ? m : nullptr;
}

// The header and the added files; the rest is the caller's.
Snapshot ReadHeader(Reader& r, const json& j, const std::string& at) {
  Snapshot s;
  s.snapshot_id = r.Int(j, at, "snapshot-id");
  s.parent_id = r.OptionalInt(j, at, "parent-snapshot-id");
  s.sequence_number = r.Int(j, at, "sequence-number");
  s.timestamp_ms = r.Int(j, at, "timestamp-ms");
  const std::string op = r.String(j, at, "operation");
  if (r.ok()) {
    if (std::optional<DataOperation> parsed = ParseOperation(op)) {
      s.operation = *parsed;
    } else {
      r.Fail(at, fmt::format("field \"operation\" has unknown value {}", json_io::Quote(op)));
    }
  }
  s.committed_by = r.String(j, at, "committed-by");
  s.schema_id = r.Int32(j, at, "schema-id");
  s.manifest_list = r.String(j, at, "manifest-list");
  if (const json* summary = r.Field(j, at, "summary")) {
    if (!summary->is_object()) {
      r.Fail(at, "field \"summary\" must be an object");
    } else {
      for (const auto& [k, v] : summary->items()) {
        if (!v.is_string()) {
          r.Fail(at, "field \"summary\" must hold strings");
          break;
        }
        s.summary[k] = v.get<std::string>();
      }
    }
  }
  s.added_files = ReadFiles(r, j, at, "added-files");
  s.added_delete_files = ReadFiles(r, j, at, "added-delete-files");
  return s;
}

// A snapshot written as its change, rebuilt on `parent`.
SnapshotRef ReadChange(Reader& r, const json& j, const std::string& at, const Snapshot* parent) {
  Snapshot s = ReadHeader(r, j, at);
  const std::vector<std::string> deleted = r.Strings(j, at, "deleted-files");
  const std::vector<std::string> removed = r.Strings(j, at, "removed-delete-files");
  ManifestRef added;
  if (const json* m = r.Field(j, at, "added-manifest"); m != nullptr && !m->is_null())
    added = ReadManifest(r, *m, at + ".added-manifest");
  if (!r.ok()) return nullptr;
  static const FileSet* const kEmpty = new FileSet();
  s.deleted_files = Expand(deleted, parent != nullptr ? *parent->live_files : *kEmpty);
  s.removed_delete_files = Expand(removed, parent != nullptr ? DeletesOf(*parent) : *kEmpty);
  return BuildSnapshot(parent, std::move(s), added);
}

// Data sequence numbers by path, from [path, number] pairs.
using Sequence = std::map<std::string, int64_t, std::less<>>;
Sequence ReadSequence(Reader& r, const json& j, const std::string& at, std::string_view key) {
  Sequence out;
  const json& pairs = r.Array(j, at, key);
  for (size_t i = 0; i < pairs.size() && r.ok(); ++i) {
    const json& p = pairs[i];
    if (!p.is_array() || p.size() != 2 || !p[0].is_string() || !p[1].is_number_integer()) {
      r.Fail(At(at, key, i), "expected [path, sequence number]");
      break;
    }
    out.insert_or_assign(p[0].get<std::string>(), p[1].get<int64_t>());
  }
  return out;
}

// The files with their numbers; a path without one has 0, and a number for no live path is unused.
std::shared_ptr<FileSet> WithSequence(const std::vector<FileRef>& files, const Sequence& sequence) {
  auto set = std::make_shared<FileSet>();
  for (const FileRef& f : files) {
    const auto n = sequence.find(f->path());
    set->emplace(f->path(), f, n != sequence.end() ? n->second : 0);
  }
  return set;
}

SnapshotRef ReadWhole(Reader& r, const json& j, const std::string& at) {
  auto s = std::make_shared<Snapshot>(ReadHeader(r, j, at));
  s->deleted_files = ReadFiles(r, j, at, "deleted-files");
  s->removed_delete_files = ReadFiles(r, j, at, "removed-delete-files");
  const json& manifests = r.Array(j, at, "manifests");
  for (size_t i = 0; i < manifests.size() && r.ok(); ++i)
    if (ManifestRef m = ReadManifest(r, manifests[i], At(at, "manifests", i))) s->manifests.push_back(std::move(m));
  const std::vector<FileRef> live_files = ReadFiles(r, j, at, "live-files");
  const std::vector<FileRef> live_deletes = ReadFiles(r, j, at, "live-deletes");
  const Sequence data_sequence = ReadSequence(r, j, at, "file-sequence");
  // Written before delete files had a list of their own, "file-sequence" held both.
  const Sequence delete_sequence =
      j.contains("delete-sequence") ? ReadSequence(r, j, at, "delete-sequence") : data_sequence;
  if (!r.ok()) return nullptr;
  s->live_files = WithSequence(live_files, data_sequence);
  s->live_deletes = WithSequence(live_deletes, delete_sequence);
  return s;
}

Result<json> ParseDocument(std::string_view text, std::string_view where) {
  if (text.empty()) return Status::Corruption(fmt::format("{}: empty file", where));
  Result<json> doc = json_io::Parse(text);
  if (!doc.ok()) return Status::Corruption(fmt::format("{}: {}", where, doc.status().message()));
  if (!doc->is_object()) return Status::Corruption(fmt::format("{}: expected a JSON object", where));
  return doc;
}

}  // namespace

std::string EncodeMetadata(const TableMetadata& m) {
  ordered_json out = {{"format-version", kFormatVersion}, {"table-name", m.table_name}, {"version", m.version}};
  out["location"] = m.location;
  out["current-schema-id"] = m.current_schema_id;
  out["last-sequence-number"] = m.last_sequence_number;
  out["last-updated-ms"] = m.last_updated_ms;
  out["current-snapshot-id"] = m.current_snapshot_id ? ordered_json(*m.current_snapshot_id) : ordered_json(nullptr);
  out["metadata-log"] = m.metadata_log.Entries();
  ordered_json snapshots = ordered_json::array();
  std::map<int64_t, const Snapshot*> written;
  for (const SnapshotRef& s : m.snapshots) {
    const Snapshot* parent = nullptr;
    bool parent_known = !s->parent_id.has_value();
    if (s->parent_id) {
      auto it = written.find(*s->parent_id);
      parent_known = it != written.end();
      if (parent_known) parent = it->second;
    }
    snapshots.push_back(parent_known && Derivable(*s, parent) ? ChangeJson(*s, parent) : WholeJson(*s));
    written[s->snapshot_id] = s.get();
  }
  out["snapshots"] = std::move(snapshots);
  return json_io::Compact(out);
}

Result<MetadataRef> DecodeMetadata(std::string_view text, std::string_view where) {
  Result<json> doc = ParseDocument(text, where);
  if (!doc.ok()) return doc.status();
  const json& j = *doc;
  Reader r;
  if (const int64_t v = r.Int(j, "", "format-version"); r.ok() && v != kFormatVersion)
    return Status::Corruption(fmt::format("{}: format-version {} is not {}", where, v, kFormatVersion));
  auto m = std::make_shared<TableMetadata>();
  m->table_name = r.String(j, "", "table-name");
  m->version = r.Int(j, "", "version");
  m->location = r.String(j, "", "location");
  m->current_schema_id = r.Int32(j, "", "current-schema-id");
  m->last_sequence_number = r.Int(j, "", "last-sequence-number");
  m->last_updated_ms = r.Int(j, "", "last-updated-ms");
  m->current_snapshot_id = r.OptionalInt(j, "", "current-snapshot-id");
  m->metadata_log = MetadataLog(r.Strings(j, "", "metadata-log"));
  const json& snapshots = r.Array(j, "", "snapshots");
  for (size_t i = 0; i < snapshots.size() && r.ok(); ++i) {
    const json& s = snapshots[i];
    const std::string at = At("", "snapshots", i);
    SnapshotRef built;
    if (s.is_object() && s.contains("live-files")) {
      built = ReadWhole(r, s, at);
    } else {
      const std::optional<int64_t> parent_id = r.OptionalInt(s, at, "parent-snapshot-id");
      SnapshotRef parent = parent_id ? m->FindSnapshot(*parent_id) : nullptr;
      if (r.ok() && parent_id && parent == nullptr) {
        r.Fail(at, fmt::format("parent snapshot {} is not among the snapshots before it", *parent_id));
        break;
      }
      built = ReadChange(r, s, at, parent.get());
    }
    if (built == nullptr) break;
    if (m->FindSnapshot(built->snapshot_id) != nullptr) {
      r.Fail(at, fmt::format("snapshot {} appears twice", built->snapshot_id));
      break;
    }
    m->snapshots.push_back(std::move(built));
  }
  if (r.ok() && m->current_snapshot_id && m->CurrentSnapshot() == nullptr)
    r.Fail("", fmt::format("current-snapshot-id {} names no snapshot", *m->current_snapshot_id));
  if (!r.ok()) return r.Error(where);
  return MetadataRef(std::move(m));
}

std::string EncodeSnapshot(const Snapshot& s) {
  // Written as a change to a parent the receiver has; the added manifest is the last one when
  // the snapshot wrote it (the receiver's parent decides the rest).
  ordered_json out = HeaderJson(s);
  out["deleted-files"] = PathsJson(s.deleted_files);
  out["removed-delete-files"] = PathsJson(s.removed_delete_files);
  const bool wrote_manifest = !s.manifests.empty() && s.manifests.back()->added_snapshot_id == s.snapshot_id;
  out["added-manifest"] = wrote_manifest ? ManifestJson(*s.manifests.back()) : ordered_json(nullptr);
  return json_io::Compact(out);
}

Result<SnapshotRef> DecodeSnapshot(std::string_view text, const TableMetadata& table, std::string_view where) {
  Result<json> doc = ParseDocument(text, where);
  if (!doc.ok()) return doc.status();
  Reader r;
  const std::optional<int64_t> parent_id = r.OptionalInt(*doc, "", "parent-snapshot-id");
  if (!r.ok()) return r.Error(where);
  SnapshotRef parent = parent_id ? table.FindSnapshot(*parent_id) : nullptr;
  if (parent_id && parent == nullptr)
    return Status::InvalidArgument(
        fmt::format("{}: parent snapshot {} is not in table {}", where, *parent_id, table.table_name));
  SnapshotRef s = ReadChange(r, *doc, "", parent.get());
  if (!r.ok()) return r.Error(where);
  return s;
}

std::string EncodeDataFile(const IcebergDataFile& f) { return json_io::Compact(FileJson(f)); }

Result<FileRef> DecodeDataFile(std::string_view text, std::string_view where) {
  Result<json> doc = ParseDocument(text, where);
  if (!doc.ok()) return doc.status();
  Reader r;
  FileRef f = ReadFile(r, *doc, "");
  if (!r.ok()) return r.Error(where);
  return f;
}

}  // namespace commitlab::iceberg
