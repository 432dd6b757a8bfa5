#include <fmt/format.h>

#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "json_parse.h"
#include "json_spans.h"
#include "metadata_json_reader.h"

// A REST LoadTableResult read once, reusing the snapshot objects read last time.
//
// The snapshot objects whose bytes equal those read before are replaced by a stand-in (the
// number 0) before the body is parsed, and ReadDocument takes the snapshot read before in their
// place. Equal bytes are an equal value, and a text that parses with a stand-in in place of a
// valid value parses with the value, so what is read is what reading the whole body gives. When
// the body with stand-ins does not read, the whole body is read, for its own error.
namespace commitlab::iceberg {
namespace {

using internal::json;
using internal::Span;

// The snapshot objects of the metadata in a LoadTableResult body. Only the snapshots array is
// scanned whole, once (not the body, then the metadata, then the array).
std::optional<std::vector<Span>> SnapshotSpans(std::string_view body) {
  const std::optional<size_t> metadata = internal::MemberAt(body, internal::FirstValue(body), "metadata");
  if (!metadata) return std::nullopt;
  const std::optional<size_t> snapshots = internal::MemberAt(body, *metadata, "snapshots");
  if (!snapshots) return std::nullopt;
  return internal::ElementsAt(body, *snapshots);
}

std::optional<int64_t> SnapshotId(std::string_view body, Span object) {
  const std::string_view text = body.substr(0, object.end);
  const std::optional<size_t> begin = internal::MemberAt(text, object.begin, "snapshot-id");
  const std::optional<size_t> end = begin ? internal::ValueEnd(text, *begin) : std::nullopt;
  if (!end) return std::nullopt;
  int64_t out = 0;
  const auto [at, ec] = std::from_chars(text.data() + *begin, text.data() + *end, out);
  return ec == std::errc() && at == text.data() + *end ? std::optional<int64_t>(out) : std::nullopt;
}

struct StandIns {
  std::string body;                      // with a 0 for each snapshot read before
  std::map<size_t, SnapshotRef> reused;  // by position in "snapshots"
};

StandIns WithStandIns(std::string_view body, const std::vector<Span>& spans, const SnapshotsRead& read) {
  StandIns out;
  size_t copied = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    COMMITLAB_CHECK(spans[i].begin >= copied && spans[i].end <= body.size(),
                    "the snapshot objects are found in order, inside the body");
    const std::string_view text = body.substr(spans[i].begin, spans[i].end - spans[i].begin);
    const std::optional<int64_t> id = SnapshotId(body, spans[i]);
    const auto it = id ? read.by_id.find(*id) : read.by_id.end();
    if (it == read.by_id.end() || it->second.first != text) continue;
    out.body.append(body, copied, spans[i].begin - copied);
    out.body += '0';
    copied = spans[i].end;
    out.reused.emplace(i, it->second.second);
  }
  out.body.append(body, copied);
  return out;
}

Result<MetadataRef> ReadBody(const json& doc, std::string_view where, std::string_view table_name,
                             const TableMetadata* previous, const std::map<size_t, SnapshotRef>* reused) {
  if (!doc.is_object()) return Status::Corruption(fmt::format("{}: expected a JSON object", where));
  const auto location = doc.find("metadata-location");
  const auto metadata = doc.find("metadata");
  if (location == doc.end() || !location->is_string() || metadata == doc.end() || !metadata->is_object())
    return Status::Corruption(fmt::format("{}: not a LoadTableResult (metadata-location and metadata)", where));
  return internal::ReadDocument(*metadata, where,
                                {.location = location->get<std::string>(), .table_name = std::string(table_name)},
                                previous, reused);
}

void Remember(std::string_view body, const std::optional<std::vector<Span>>& spans, const TableMetadata& m,
              SnapshotsRead* read) {
  read->by_id.clear();
  read->location = m.Fields().location;
  if (!spans || spans->size() != m.snapshots.size()) return;
  for (size_t i = 0; i < spans->size(); ++i) {
    const Span s = (*spans)[i];
    read->by_id.insert_or_assign(m.snapshots[i]->snapshot_id,
                                 std::make_pair(std::string(body.substr(s.begin, s.end - s.begin)), m.snapshots[i]));
  }
}

}  // namespace

Result<MetadataRef> DecodeLoadResult(std::string_view body, std::string_view where, std::string_view table_name,
                                     const TableMetadata* previous, SnapshotsRead* read) {
  const std::optional<std::vector<Span>> spans = read != nullptr ? SnapshotSpans(body) : std::nullopt;
  if (spans && !read->by_id.empty()) {
    const StandIns s = WithStandIns(body, *spans, *read);
    Result<json> doc = json_io::Parse(s.body);
    Result<MetadataRef> m =
        doc.ok() ? ReadBody(*doc, where, table_name, previous, &s.reused) : Result<MetadataRef>(doc.status());
    // A snapshot's paths are read under the table's location: a moved table is read afresh.
    if (m.ok() && (s.reused.empty() || (*m)->Fields().location == read->location)) {
      for (const auto& [i, snapshot] : s.reused)
        COMMITLAB_CHECK(i < (*m)->snapshots.size() && (*m)->snapshots[i] == snapshot,
                        "a snapshot read before stands at the position of the object it was read from");
      Remember(body, spans, **m, read);
      return m;
    }
  }
  COMMITLAB_ASSIGN_OR_RETURN(json doc, internal::ParseDocument(body, where));
  COMMITLAB_ASSIGN_OR_RETURN(MetadataRef m, ReadBody(doc, where, table_name, previous, nullptr));
  if (read != nullptr) Remember(body, spans, *m, read);
  return m;
}

}  // namespace commitlab::iceberg
