#include "commitlab/core/iceberg/deletes.h"

#include <algorithm>
#include <set>

namespace commitlab::iceberg {
namespace {

int64_t SequenceOf(const Snapshot& s, const std::string& path) {
  if (s.file_sequence == nullptr) return 0;
  auto it = s.file_sequence->find(path);
  return it == s.file_sequence->end() ? 0 : it->second;
}

bool KeyMatches(const Row& key, const Row& row) {
  for (const auto& [column, value] : key) {
    auto it = row.find(column);
    if (it == row.end() || it->second != value) return false;
  }
  return true;
}

}  // namespace

std::vector<int64_t> DeletedPositions(const Snapshot& s, const IcebergDataFile& data) {
  std::set<int64_t> out;
  if (s.live_deletes == nullptr || s.live_deletes->empty()) return {};
  const int64_t data_seq = SequenceOf(s, data.path());
  for (const auto& [path, del] : *s.live_deletes) {
    const int64_t del_seq = SequenceOf(s, path);
    if (del->content == FileContent::kPositionDeletes) {
      if (del_seq < data_seq) continue;
      for (const PositionDelete& p : del->positions)
        if (p.path == data.path() && p.pos >= 0 && p.pos < static_cast<int64_t>(data.rows.size())) out.insert(p.pos);
    } else if (del->content == FileContent::kEqualityDeletes) {
      if (del_seq <= data_seq || del->file.partition != data.file.partition) continue;
      for (size_t i = 0; i < data.rows.size(); ++i)
        if (std::any_of(del->rows.begin(), del->rows.end(), [&](const Row& key) { return KeyMatches(key, data.rows[i]); }))
          out.insert(static_cast<int64_t>(i));
    }
  }
  return {out.begin(), out.end()};
}

std::vector<Row> LiveRows(const Snapshot& s, const IcebergDataFile& data) {
  const std::vector<int64_t> gone = DeletedPositions(s, data);
  if (gone.empty()) return data.rows;
  std::vector<Row> out;
  out.reserve(data.rows.size() - gone.size());
  for (size_t i = 0; i < data.rows.size(); ++i)
    if (!std::binary_search(gone.begin(), gone.end(), static_cast<int64_t>(i))) out.push_back(data.rows[i]);
  return out;
}

}  // namespace commitlab::iceberg
