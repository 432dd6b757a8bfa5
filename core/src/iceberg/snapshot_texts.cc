#include <map>
#include <string>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "json_write.h"
#include "metadata_json_reader.h"

// SnapshotTexts: the snapshots array of a table's next version, re-encoding only what changed.
namespace commitlab::iceberg {

std::string SnapshotTexts::Encode(const TableMetadata& m) {
  const std::string& location = m.Fields().location;
  if (location != location_) by_id_.clear();  // every path in the texts is under the location
  std::map<int64_t, Entry> next;
  std::map<int64_t, const Snapshot*> written;  // the snapshots before this one in the array
  std::string out = "[";
  for (const SnapshotRef& s : m.snapshots) {
    const Snapshot* parent = nullptr;
    bool parent_known = !s->parent_id.has_value();
    if (s->parent_id) {
      auto it = written.find(*s->parent_id);
      parent_known = it != written.end();
      if (parent_known) parent = it->second;
    }
    Entry e{s, parent, parent_known, ""};
    auto kept = by_id_.find(s->snapshot_id);
    if (kept != by_id_.end() && kept->second.snapshot == s && kept->second.parent == parent &&
        kept->second.parent_known == parent_known) {
      e.text = kept->second.text;
    } else {
      e.text = json_io::Compact(internal::SnapshotJson(*s, parent, parent_known, location));
    }
    if (out.size() > 1) out += ',';
    out += e.text;
    written[s->snapshot_id] = s.get();
    next.insert_or_assign(s->snapshot_id, std::move(e));
  }
  out += ']';
  COMMITLAB_CHECK(next.size() <= m.snapshots.size(), "the texts kept are those of the version just encoded");
  by_id_ = std::move(next);
  location_ = location;
  return out;
}

}  // namespace commitlab::iceberg
