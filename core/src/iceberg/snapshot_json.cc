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
#include "commitlab/core/iceberg/metadata_json.h"
#include "json_write.h"
#include "metadata_json_reader.h"

// Snapshots as JSON: the specification's object (SnapshotParser) and commitlab's files beside it.
//
// commitlab keeps what a reader needs inside the metadata, where Iceberg would name manifests and
// Parquet files: the member "commitlab" of each snapshot holds its change to its parent (the files
// it added in full, the paths it removed, the manifest it wrote), from which a reader rebuilds its
// live files, delete files, data sequence numbers and carried-over manifests the way
// ApplySnapshot built them; so a metadata file grows with the files of the table, not with files x
// snapshots. A snapshot whose parent is not retained is written whole. Every field of the
// specification is there as SnapshotParser writes it; readers that know only the specification
// ignore the member.
namespace commitlab::iceberg {
namespace internal {
namespace {

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

//----
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

std::optional<DataOperation> ParseOperation(std::string_view s) {
  for (DataOperation op :
       {DataOperation::kAppend, DataOperation::kReplace, DataOperation::kOverwrite, DataOperation::kDelete})
    if (DataOperationName(op) == s) return op;
  return std::nullopt;
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

// SnapshotParser.toJson's fields, paths under the table's location.
ordered_json SpecJson(const Snapshot& s, std::string_view location) {
  ordered_json out = ordered_json::object();
  if (s.sequence_number > 0) out["sequence-number"] = s.sequence_number;
  out["snapshot-id"] = s.snapshot_id;
  if (s.parent_id) out["parent-snapshot-id"] = *s.parent_id;
  out["timestamp-ms"] = s.timestamp_ms;
  ordered_json summary = {{"operation", DataOperationName(s.operation)}};
  for (const auto& [k, v] : s.summary)
    if (k != "operation") summary[k] = v;
  out["summary"] = std::move(summary);
  if (!s.manifest_list.empty()) {
    out["manifest-list"] = Absolute(location, s.manifest_list);
  } else {  // format v1's embedded manifest list
    ordered_json manifests = ordered_json::array();
    for (const ManifestRef& m : s.manifests) manifests.push_back(Absolute(location, m->path));
    out["manifests"] = std::move(manifests);
  }
  out["schema-id"] = s.schema_id;
  return out;
}

// commitlab's member for a snapshot written as its change; `added` is the manifest it wrote.
ordered_json ChangeMember(const Snapshot& s, const ManifestRef& added) {
  ordered_json out = {{"committed-by", s.committed_by}};
  out["added-files"] = FilesJson(s.added_files);
  out["added-delete-files"] = FilesJson(s.added_delete_files);
  out["deleted-files"] = PathsJson(s.deleted_files);
  out["removed-delete-files"] = PathsJson(s.removed_delete_files);
  out["added-manifest"] = added != nullptr ? ManifestJson(*added) : ordered_json(nullptr);
  return out;
}

// commitlab's member with everything a reader needs, for a snapshot whose parent is not at hand.
ordered_json WholeMember(const Snapshot& s) {
  ordered_json out = {{"committed-by", s.committed_by}};
  out["added-files"] = FilesJson(s.added_files);
  out["added-delete-files"] = FilesJson(s.added_delete_files);
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

// SnapshotParser.fromJson's fields into `s`.
void ReadSpec(Reader& r, const json& j, const std::string& at, std::string_view location, Snapshot* s) {
  if (!j.is_object()) return r.Fail(at, "Cannot parse table version from a non-object");
  s->sequence_number = j.contains("sequence-number") ? r.GetLong(j, at, "sequence-number") : 0;
  s->snapshot_id = r.GetLong(j, at, "snapshot-id");
  if (j.contains("parent-snapshot-id")) s->parent_id = r.GetLong(j, at, "parent-snapshot-id");
  s->timestamp_ms = r.GetLong(j, at, "timestamp-ms");
  // Without an operation in a summary that has fields, overwrite (as upstream reads it).
  s->operation = DataOperation::kOverwrite;
  if (j.contains("summary")) {
    const json& summary = j["summary"];
    if (!summary.is_object()) return r.Fail(at, "Cannot parse summary from non-object value");
    for (const auto& [k, v] : summary.items()) {
      const std::string value = r.GetString(summary, at, k);
      if (k != "operation") {
        s->summary[k] = value;
      } else if (std::optional<DataOperation> op = ParseOperation(value)) {
        s->operation = *op;
      } else {
        return r.Fail(
            at, fmt::format("operation {} is not one of append, replace, overwrite, delete", json_io::Quote(value)));
      }
    }
  }
  s->schema_id = r.GetIntOrNull(j, at, "schema-id").value_or(0);
  if (j.contains("manifest-list") || !j.contains("manifests"))
    s->manifest_list = Relative(location, r.GetString(j, at, "manifest-list"));
}

// A snapshot whose member holds its change, rebuilt on `parent`.
SnapshotRef ReadChange(Reader& r, const json& j, const std::string& at, const Snapshot* parent, Snapshot s) {
  s.committed_by = r.String(j, at, "committed-by");
  s.added_files = ReadFiles(r, j, at, "added-files");
  s.added_delete_files = ReadFiles(r, j, at, "added-delete-files");
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

// A snapshot whose member holds it whole.
SnapshotRef ReadWhole(Reader& r, const json& j, const std::string& at, Snapshot header) {
  auto s = std::make_shared<Snapshot>(std::move(header));
  s->committed_by = r.String(j, at, "committed-by");
  s->added_files = ReadFiles(r, j, at, "added-files");
  s->added_delete_files = ReadFiles(r, j, at, "added-delete-files");
  s->deleted_files = ReadFiles(r, j, at, "deleted-files");
  s->removed_delete_files = ReadFiles(r, j, at, "removed-delete-files");
  const json& manifests = r.Array(j, at, "manifests");
  for (size_t i = 0; i < manifests.size() && r.ok(); ++i)
    if (ManifestRef m = ReadManifest(r, manifests[i], At(at, "manifests", i))) s->manifests.push_back(std::move(m));
  const std::vector<FileRef> live_files = ReadFiles(r, j, at, "live-files");
  const std::vector<FileRef> live_deletes = ReadFiles(r, j, at, "live-deletes");
  const Sequence data_sequence = ReadSequence(r, j, at, "file-sequence");
  const Sequence delete_sequence = ReadSequence(r, j, at, "delete-sequence");
  if (!r.ok()) return nullptr;
  s->live_files = WithSequence(live_files, data_sequence);
  s->live_deletes = WithSequence(live_deletes, delete_sequence);
  return s;
}

}  // namespace

ordered_json SnapshotJson(const Snapshot& s, const Snapshot* parent, bool parent_known,
                          std::string_view table_location) {
  ordered_json out = SpecJson(s, table_location);
  out["commitlab"] = parent_known && Derivable(s, parent) ? ChangeMember(s, AddedManifest(s, parent)) : WholeMember(s);
  return out;
}

SnapshotRef ReadSnapshot(Reader& r, const json& j, const std::string& at, const TableMetadata& table,
                         std::string_view table_location) {
  Snapshot s;
  ReadSpec(r, j, at, table_location, &s);
  if (!r.ok()) return nullptr;
  const SnapshotRef parent = s.parent_id ? table.FindSnapshot(*s.parent_id) : nullptr;
  const std::string member_at = at.empty() ? "commitlab" : at + ".commitlab";
  auto member = j.find("commitlab");
  if (member == j.end()) return BuildSnapshot(parent.get(), std::move(s), nullptr);  // another client's
  if (member->is_object() && member->contains("live-files")) return ReadWhole(r, *member, member_at, std::move(s));
  if (s.parent_id && parent == nullptr) {
    r.Fail(at, fmt::format("parent snapshot {} is not among the snapshots before it", *s.parent_id));
    return nullptr;
  }
  return ReadChange(r, *member, member_at, parent.get(), std::move(s));
}

}  // namespace internal

std::string EncodeSnapshot(const Snapshot& s, std::string_view table_location) {
  // Written as a change to a parent the receiver has; the added manifest is the last one when
  // the snapshot wrote it (the receiver's parent decides the rest).
  internal::ordered_json out = internal::SpecJson(s, table_location);
  const bool wrote_manifest = !s.manifests.empty() && s.manifests.back()->added_snapshot_id == s.snapshot_id;
  out["commitlab"] = internal::ChangeMember(s, wrote_manifest ? s.manifests.back() : nullptr);
  return json_io::Compact(out);
}

Result<SnapshotRef> DecodeSnapshot(std::string_view text, const TableMetadata& table, std::string_view where) {
  COMMITLAB_ASSIGN_OR_RETURN(internal::json doc, internal::ParseDocument(text, where));
  const internal::json& j = doc;
  if (j.contains("commitlab") && j.contains("parent-snapshot-id") && j["parent-snapshot-id"].is_number_integer() &&
      table.FindSnapshot(j["parent-snapshot-id"].get<int64_t>()) == nullptr)
    return Status::InvalidArgument(fmt::format("{}: parent snapshot {} is not in table {}", where,
                                               j["parent-snapshot-id"].get<int64_t>(), table.table_name));
  internal::Reader r;
  SnapshotRef s = internal::ReadSnapshot(r, j, "", table, table.Fields().location);
  if (!r.ok()) return r.Error(where);
  return s;
}

}  // namespace commitlab::iceberg
