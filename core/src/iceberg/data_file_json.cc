#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "commitlab/core/iceberg/metadata_json.h"
#include "json_write.h"
#include "metadata_json_reader.h"

// A data or delete file with its contents as JSON: commitlab's own (Iceberg keeps contents in
// Parquet and entries in Avro manifests), in a snapshot's "commitlab" member and in DirFileIO's files.
namespace commitlab::iceberg {
namespace internal {
namespace {

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

}  // namespace

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

namespace {

std::optional<FileContent> ParseContent(std::string_view s) {
  if (s == "data") return FileContent::kData;
  if (s == "position-deletes") return FileContent::kPositionDeletes;
  if (s == "equality-deletes") return FileContent::kEqualityDeletes;
  return std::nullopt;
}

}  // namespace

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

}  // namespace internal

std::string EncodeDataFile(const IcebergDataFile& f) { return json_io::Compact(internal::FileJson(f)); }

Result<FileRef> DecodeDataFile(std::string_view text, std::string_view where) {
  COMMITLAB_ASSIGN_OR_RETURN(internal::json doc, internal::ParseDocument(text, where));
  internal::Reader r;
  FileRef f = internal::ReadFile(r, doc, "");
  if (!r.ok()) return r.Error(where);
  return f;
}

}  // namespace commitlab::iceberg
