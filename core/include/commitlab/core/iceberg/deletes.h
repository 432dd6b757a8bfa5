// Reading through delete files (format v2 merge-on-read), after Iceberg's DeleteFilter: a data
// file's rows minus those a live delete file of its snapshot removes. A position delete applies
// to the file it names when its data sequence number is at least the file's; an equality delete
// applies to files of its partition with a lower one, to each row whose key columns equal one
// of its rows.
#ifndef COMMITLAB_CORE_ICEBERG_DELETES_H_
#define COMMITLAB_CORE_ICEBERG_DELETES_H_

#include <cstdint>
#include <vector>

#include "commitlab/core/iceberg/model.h"

namespace commitlab::iceberg {

// The positions (indexes into data.rows) that `s`'s delete files remove from `data`, sorted.
std::vector<int64_t> DeletedPositions(const Snapshot& s, const IcebergDataFile& data);
// data.rows without the deleted ones, in file order.
std::vector<Row> LiveRows(const Snapshot& s, const IcebergDataFile& data);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_DELETES_H_
