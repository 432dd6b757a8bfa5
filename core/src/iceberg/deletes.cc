#include "commitlab/core/iceberg/deletes.h"

#include <algorithm>
#include <set>
#include <string>

#include "commitlab/core/check.h"

namespace commitlab::iceberg {
namespace {

// The row's values of the key columns (absent ones left out, so they match no key).
Row Project(const Row& row, const std::vector<std::string>& columns) {
  Row out;
  for (const std::string& c : columns)
    if (auto it = row.find(c); it != row.end()) out.emplace(c, it->second);
  return out;
}

}  // namespace

std::vector<int64_t> DeletedPositions(const Snapshot& s, const IcebergDataFile& data) {
  std::set<int64_t> out;
  if (s.live_deletes == nullptr || s.live_deletes->empty()) return {};
  const int64_t data_seq = s.live_files != nullptr ? s.live_files->sequence(data.path()) : 0;
  for (auto it = s.live_deletes->begin(); it != s.live_deletes->end(); ++it) {
    const FileRef& del = it->second;
    const int64_t del_seq = it.sequence();
    if (del->content == FileContent::kPositionDeletes) {
      if (del_seq < data_seq) continue;
      for (const PositionDelete& p : del->positions)
        if (p.path == data.path() && p.pos >= 0 && p.pos < static_cast<int64_t>(data.rows.size())) out.insert(p.pos);
    } else if (del->content == FileContent::kEqualityDeletes) {
      if (del_seq <= data_seq || del->file.partition != data.file.partition) continue;
      const std::set<Row> keys(del->rows.begin(), del->rows.end());
      for (size_t i = 0; i < data.rows.size(); ++i)
        if (keys.count(Project(data.rows[i], del->equality_columns)) != 0) out.insert(static_cast<int64_t>(i));
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
  COMMITLAB_CHECK(out.size() + gone.size() == data.rows.size(),
                  "each deleted position is a distinct row of the file: a read drops one row for each");
  return out;
}

}  // namespace commitlab::iceberg
