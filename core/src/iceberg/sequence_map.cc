#include "commitlab/core/iceberg/sequence_map.h"

#include <algorithm>

namespace commitlab::iceberg {

SequenceMap::const_iterator SequenceMap::find(std::string_view path) const {
  const const_iterator it{&entries_, entries_.LowerBound(path)};
  return it != end() && it->first == path ? it : end();
}

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
