#include "commitlab/core/iceberg/sequence_map.h"

#include <algorithm>

namespace commitlab::iceberg {

void SequenceMap::insert_or_assign(std::string_view path, int64_t sequence) {
  const Entries::Pos at = entries_.LowerBound(path);
  if (at != entries_.end() && entries_.at(at).first == path) {
    if (entries_.at(at).second != sequence) entries_.Replace(at, {std::string(path), sequence});
  } else {
    entries_.Insert(at, {std::string(path), sequence});
  }
}

bool SequenceMap::operator==(const SequenceMap& o) const {
  return size() == o.size() && std::equal(begin(), end(), o.begin());
}

}  // namespace commitlab::iceberg
