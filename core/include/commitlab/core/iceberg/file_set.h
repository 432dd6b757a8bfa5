// FileSet: the files live in a snapshot, by path, in path order; a path added twice is there
// twice, in the order added (a blind re-commit after an unknown outcome, whose rows are then read
// twice). Read like a std::multimap<std::string, FileRef>: entries are {path, file} pairs; unlike
// one, any change invalidates every iterator and reference into it.
//
// Each entry also keeps its path's data sequence number: the sequence number of the snapshot that
// added it, as a manifest entry does (ManifestEntry.dataSequenceNumber). A path added again takes
// the new number on all its entries: a reader looks deletes up by path. On the entry, the number
// is copied with the file by the commit attempt that copies its chunk.
//
// Persistent (chunked_sorted.h): every snapshot keeps its own set, built from its parent's by a
// commit attempt, and the copy shares all but the chunks the attempt changed.
#ifndef COMMITLAB_CORE_ICEBERG_FILE_SET_H_
#define COMMITLAB_CORE_ICEBERG_FILE_SET_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/iceberg/chunked_sorted.h"

namespace commitlab::iceberg {

struct IcebergDataFile;
using FileRef = std::shared_ptr<const IcebergDataFile>;

class FileSet {
  struct Entry {
    FileRef file;
    int64_t sequence = 0;
  };
  struct PathOf {
    const std::string& operator()(const Entry& e) const;  // e.file->path()
  };
  using Entries = internal::ChunkedSorted<Entry, PathOf>;
  using Pos = Entries::Pos;

 public:
  using value_type = std::pair<const std::string&, const FileRef&>;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using difference_type = std::ptrdiff_t;
    using value_type = FileSet::value_type;
    using reference = value_type;
    struct Arrow {
      value_type entry;
      const value_type* operator->() const { return &entry; }
    };
    using pointer = Arrow;

    const_iterator() = default;
    value_type operator*() const;
    Arrow operator->() const { return {**this}; }
    int64_t sequence() const { return it_->sequence; }  // as FileSet::sequence(path)
    const_iterator& operator++() {
      ++it_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++it_;
      return before;
    }
    bool operator==(const const_iterator& o) const { return it_ == o.it_; }

   private:
    friend class FileSet;
    const_iterator(const FileSet* set, Pos pos) : it_(&set->entries_, pos) {}
    Entries::const_iterator it_;
  };
  using iterator = const_iterator;

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.size() == 0; }
  const_iterator begin() const { return {this, entries_.begin()}; }
  const_iterator end() const { return {this, entries_.end()}; }
  const_iterator lower_bound(std::string_view path) const { return {this, entries_.LowerBound(path)}; }
  const_iterator upper_bound(std::string_view path) const { return {this, entries_.UpperBound(path)}; }
  std::pair<const_iterator, const_iterator> equal_range(std::string_view path) const {
    return {lower_bound(path), upper_bound(path)};
  }
  const_iterator find(std::string_view path) const { return {this, entries_.Find(path)}; }
  size_t count(std::string_view path) const;
  // The data sequence number of `path`, or 0 if it is not here.
  int64_t sequence(std::string_view path) const;

  // Adds `f` after any entry with its path, and gives the path data sequence number `sequence`.
  // REQUIRES: path == f->path().
  void emplace(std::string_view path, const FileRef& f, int64_t sequence);
  // Removes every entry with `path`; how many there were.
  size_t erase(std::string_view path) { return entries_.EraseKey(path); }

 private:
  Entries entries_;
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_FILE_SET_H_
