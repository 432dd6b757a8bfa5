// SequenceMap: the data sequence number of every file live in a snapshot, by path: the sequence
// number of the snapshot that added it (a path added twice has the later one). Read like a
// std::map<std::string, int64_t>.
//
// Persistent (chunked_sorted.h): every snapshot keeps its own map, built from its parent's by a
// commit attempt, and the copy shares all but the chunks the attempt changed.
#ifndef COMMITLAB_CORE_ICEBERG_SEQUENCE_MAP_H_
#define COMMITLAB_CORE_ICEBERG_SEQUENCE_MAP_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "commitlab/core/iceberg/chunked_sorted.h"

namespace commitlab::iceberg {

class SequenceMap {
 public:
  using value_type = std::pair<std::string, int64_t>;

 private:
  struct PathOf {
    const std::string& operator()(const value_type& e) const { return e.first; }
  };
  using Entries = internal::ChunkedSorted<value_type, PathOf>;

 public:
  using const_iterator = Entries::const_iterator;
  using iterator = const_iterator;

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.size() == 0; }
  const_iterator begin() const { return entries_.cbegin(); }
  const_iterator end() const { return entries_.cend(); }
  const_iterator find(std::string_view path) const { return {&entries_, entries_.Find(path)}; }

  void insert_or_assign(std::string_view path, int64_t sequence);
  // Removes `path`; 1 if it was there, else 0.
  size_t erase(std::string_view path) { return entries_.EraseKey(path); }

  // The same paths with the same numbers.
  bool operator==(const SequenceMap& o) const;

 private:
  Entries entries_;
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_SEQUENCE_MAP_H_
