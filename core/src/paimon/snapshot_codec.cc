#include "commitlab/core/paimon/snapshot_codec.h"

#include <fmt/format.h>

#include <limits>
#include <optional>

#include "json_fields.h"
#include "json_parse.h"
#include "json_write.h"

namespace commitlab {

namespace {

using json_io::Quote;
using nlohmann::json;
using nlohmann::ordered_json;

Status Corrupt(std::string_view path, std::string_view why) {
  return Status::Corruption(fmt::format("{}: {}", path, why));
}

// Parses `text`, naming `path` in any error; an empty file gets its own words.
Result<json> ParseFile(std::string_view text, std::string_view path) {
  if (text.empty()) return Corrupt(path, "empty file");
  Result<json> v = json_io::Parse(text);
  if (!v.ok()) return Corrupt(path, v.status().message());
  return v;
}

std::optional<ChangeKind> ParseChangeKind(std::string_view s) {
  if (s == "ADD") return ChangeKind::kAdd;
  if (s == "DELETE") return ChangeKind::kDelete;
  return std::nullopt;
}

Status UnknownValue(std::string_view key, std::string_view value) {
  return Status::InvalidArgument(fmt::format("field {} has unknown value {}", Quote(key), Quote(value)));
}

Result<int32_t> GetInt32(const json& obj, std::string_view key) {
  COMMITLAB_ASSIGN_OR_RETURN(int64_t v, json_io::GetInt(obj, key));
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
    return Status::InvalidArgument(fmt::format("field {} is out of range: {}", Quote(key), v));
  return static_cast<int32_t>(v);
}

// Reads `key` into *out; the first failure is kept in *st and later calls do nothing, so a
// decoder reads as a flat list of fields.
class FieldReader {
 public:
  explicit FieldReader(const json& obj) : obj_(obj) {}

  void Int(std::string_view key, int64_t* out) { Take(json_io::GetInt(obj_, key), out); }
  void Int32(std::string_view key, int32_t* out) { Take(GetInt32(obj_, key), out); }
  void String(std::string_view key, std::string* out) { Take(json_io::GetString(obj_, key), out); }

  const Status& status() const { return status_; }

 private:
  template <typename T>
  void Take(Result<T> r, T* out) {
    if (!status_.ok()) return;
    if (r.ok()) {
      *out = std::move(r).value();
    } else {
      status_ = r.status();
    }
  }

  const json& obj_;
  Status status_;
};

Status CheckSnapshot(const Snapshot& s, int64_t version, const std::string& kind) {
  if (version != kSnapshotVersion)
    return Status::InvalidArgument(fmt::format("unsupported version {}, expected {}", version, kSnapshotVersion));
  if (s.id < 1) return Status::InvalidArgument(fmt::format("field \"id\" must be at least 1, got {}", s.id));
  if (s.parent_id < 0 || s.parent_id >= s.id)
    return Status::InvalidArgument(fmt::format("field \"parentId\" must be in [0, {}), got {}", s.id, s.parent_id));
  if (!ParseCommitKind(kind)) return UnknownValue("commitKind", kind);
  return Status::OK();
}

Status DecodeSnapshotFields(const json& doc, Snapshot* s) {
  if (!doc.is_object())
    return Status::InvalidArgument(fmt::format("expected a JSON object, got {}", json_io::TypeName(doc)));
  int64_t version = 0;
  std::string kind;
  FieldReader r(doc);
  r.Int("version", &version);
  r.Int("id", &s->id);
  r.Int("parentId", &s->parent_id);
  r.String("commitUser", &s->commit_user);
  r.Int("commitIdentifier", &s->commit_identifier);
  r.String("commitKind", &kind);
  r.Int("timeMillis", &s->time_millis);
  r.Int("totalRecordCount", &s->total_records);
  r.Int("deltaRecordCount", &s->delta_records);
  r.String("deltaManifestList", &s->delta_manifest);
  COMMITLAB_RETURN_IF_ERROR(r.status());
  COMMITLAB_RETURN_IF_ERROR(CheckSnapshot(*s, version, kind));
  s->kind = *ParseCommitKind(kind);
  return Status::OK();
}

Status DecodeEntry(const json& entry, FileChange* c) {
  if (!entry.is_object())
    return Status::InvalidArgument(fmt::format("expected an object, got {}", json_io::TypeName(entry)));
  std::string kind;
  DataFile& f = c->file;
  FieldReader r(entry);
  r.String("kind", &kind);
  r.String("partition", &f.partition);
  r.Int32("bucket", &f.bucket);
  if (entry.contains("totalBuckets")) r.Int32("totalBuckets", &f.total_buckets);
  r.Int32("level", &f.level);
  r.String("fileName", &f.name);
  r.Int("minKey", &f.min_key);
  r.Int("maxKey", &f.max_key);
  r.Int("rowCount", &f.row_count);
  COMMITLAB_RETURN_IF_ERROR(r.status());
  const std::optional<ChangeKind> k = ParseChangeKind(kind);
  if (!k) return UnknownValue("kind", kind);
  if (f.name.empty()) return Status::InvalidArgument("field \"fileName\" is empty");
  c->kind = *k;
  return Status::OK();
}

}  // namespace

std::string EncodeSnapshot(const Snapshot& s) {
  // Jackson's default pretty printer, which Paimon's JsonSerdeUtil.toJson uses; ordered_json
  // keeps the members in this order, so the file's bytes are stable.
  const ordered_json doc = {
      {"version", kSnapshotVersion},
      {"id", s.id},
      {"parentId", s.parent_id},
      {"commitUser", s.commit_user},
      {"commitIdentifier", s.commit_identifier},
      {"commitKind", CommitKindName(s.kind)},
      {"timeMillis", s.time_millis},
      {"totalRecordCount", s.total_records},
      {"deltaRecordCount", s.delta_records},
      {"deltaManifestList", s.delta_manifest},
  };
  return json_io::JacksonPretty(doc) + "\n";
}

Result<Snapshot> DecodeSnapshot(std::string_view text, std::string_view path) {
  COMMITLAB_ASSIGN_OR_RETURN(json doc, ParseFile(text, path));
  Snapshot s;
  if (Status st = DecodeSnapshotFields(doc, &s); !st.ok()) return Corrupt(path, st.message());
  return s;
}

std::string EncodeManifest(const std::vector<FileChange>& changes) {
  if (changes.empty()) return "[]\n";
  std::string out = "[\n";
  for (size_t i = 0; i < changes.size(); ++i) {
    const DataFile& f = changes[i].file;
    ordered_json entry = {
        {"kind", ChangeKindName(changes[i].kind)},
        {"partition", f.partition},
        {"bucket", f.bucket},
    };
    // After _BUCKET, as in Paimon's schema. 0 is unknown and not written; a negative count (Paimon's
    // -1 dynamic and -2 postpone bucket modes) is kept, so a manifest reads back as it was written.
    if (f.total_buckets != 0) entry["totalBuckets"] = f.total_buckets;
    entry["level"] = f.level;
    entry["fileName"] = f.name;
    entry["minKey"] = f.min_key;
    entry["maxKey"] = f.max_key;
    entry["rowCount"] = f.row_count;
    out += "  " + json_io::SpacedLine(entry) + (i + 1 < changes.size() ? ",\n" : "\n");
  }
  out += "]\n";
  return out;
}

Result<std::vector<FileChange>> DecodeManifest(std::string_view text, std::string_view path) {
  COMMITLAB_ASSIGN_OR_RETURN(json doc, ParseFile(text, path));
  if (!doc.is_array()) return Corrupt(path, fmt::format("expected a JSON array, got {}", json_io::TypeName(doc)));
  const json& entries = doc;
  std::vector<FileChange> changes(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (Status st = DecodeEntry(entries[i], &changes[i]); !st.ok())
      return Corrupt(path, fmt::format("entry {}: {}", i, st.message()));
  }
  return changes;
}

}  // namespace commitlab
