// ChunkedSorted<T, KeyOf>: a sorted sequence of T (by the string key KeyOf()(t)) whose storage is
// persistent: the entries sit in chunks shared between copies, and a change copies only the chunk
// it touches. A snapshot's live files are a copy of its parent's with a few changes, so a copy
// costs O(N / chunk) pointer copies rather than O(N) nodes and strings. FileSet is its reading and
// does not expose it.
#ifndef COMMITLAB_CORE_ICEBERG_CHUNKED_SORTED_H_
#define COMMITLAB_CORE_ICEBERG_CHUNKED_SORTED_H_

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/position_iterator.h"

namespace commitlab::iceberg::internal {

template <typename T, typename KeyOf>
class ChunkedSorted {
 public:
  // A position: chunk and index in it; end() is {chunks, 0}.
  struct Pos {
    size_t chunk = 0;
    size_t index = 0;
    bool operator==(const Pos&) const = default;
  };

  // Iterates the entries in key order.
  using const_iterator = PositionIterator<ChunkedSorted, Pos, T>;
  const_iterator cbegin() const { return {this, begin()}; }
  const_iterator cend() const { return {this, end()}; }

  size_t size() const { return size_; }
  Pos begin() const { return {0, 0}; }
  Pos end() const { return {chunks_.size(), 0}; }
  const T& at(Pos p) const {
    COMMITLAB_DCHECK(IsEntry(p), "a position read is an entry, not end() or past it");
    return (*chunks_[p.chunk])[p.index];
  }
  Pos Next(Pos p) const {
    COMMITLAB_DCHECK(IsEntry(p), "an iterator steps from an entry, never past end()");
    return ++p.index == chunks_[p.chunk]->size() ? Pos{p.chunk + 1, 0} : p;
  }

  // The first entry whose key is not less than (LowerBound) / greater than (UpperBound) `key`.
  Pos LowerBound(std::string_view key) const {
    return Bound(key, [](std::string_view a, std::string_view b) { return a < b; });
  }
  Pos UpperBound(std::string_view key) const {
    return Bound(key, [](std::string_view a, std::string_view b) { return a <= b; });
  }
  // The first entry with `key`, or end().
  Pos Find(std::string_view key) const {
    const Pos p = LowerBound(key);
    return p != end() && KeyOf()(at(p)) == key ? p : end();
  }

  ChunkedSorted() = default;
  ChunkedSorted(const ChunkedSorted&) = default;
  ChunkedSorted& operator=(const ChunkedSorted&) = default;
  // A moved-from one is empty, size included.
  ChunkedSorted(ChunkedSorted&& o) noexcept : chunks_(std::move(o.chunks_)), size_(std::exchange(o.size_, 0)) {
    o.chunks_.clear();
  }
  ChunkedSorted& operator=(ChunkedSorted&& o) noexcept {
    chunks_ = std::move(o.chunks_);
    o.chunks_.clear();
    size_ = std::exchange(o.size_, 0);
    return *this;
  }

  // Inserts `t` before `at`. REQUIRES: the order by key is kept. Positions, iterators and
  // references into the container are invalid after any change.
  void Insert(Pos at, T t) {
    COMMITLAB_DCHECK(FitsBefore(at, t), "an entry is inserted where its key keeps the order");
    if (chunks_.empty()) {
      chunks_.push_back(std::make_shared<const Chunk>(Chunk{std::move(t)}));
      ++size_;
      return;
    }
    if (at == end()) at = {chunks_.size() - 1, chunks_.back()->size()};  // after the last entry
    const Chunk& old = *chunks_[at.chunk];
    auto grown = std::make_shared<Chunk>();
    grown->reserve(old.size() + 1);
    grown->insert(grown->end(), old.begin(), old.begin() + Diff(at.index));
    grown->push_back(std::move(t));
    grown->insert(grown->end(), old.begin() + Diff(at.index), old.end());
    const auto where = chunks_.begin() + Diff(at.chunk);
    if (grown->size() < 2 * kChunk) {
      *where = std::move(grown);
      ++size_;
      return;
    }
    auto upper = std::make_shared<Chunk>(grown->begin() + Diff(kChunk), grown->end());
    grown->resize(kChunk);
    chunks_.insert(where + 1, std::move(upper));  // may throw: nothing changed yet
    chunks_[at.chunk] = std::move(grown);
    ++size_;
    COMMITLAB_DCHECK(Counted(), "chunks are never empty and size() counts their entries");
  }

  // Replaces the entry at `at` by `t`; positions stay valid. REQUIRES: `at` is an entry and `t`
  // has its key.
  void Replace(Pos at, T t) {
    COMMITLAB_DCHECK(IsEntry(at) && KeyOf()(t) == KeyOf()(this->at(at)), "a replacement keeps the entry's key");
    auto copy = std::make_shared<Chunk>(*chunks_[at.chunk]);
    (*copy)[at.index] = std::move(t);
    chunks_[at.chunk] = std::move(copy);
  }

  // Removes every entry with `key`; how many there were.
  size_t EraseKey(std::string_view key) {
    size_t removed = 0;
    for (size_t c = LowerBound(key).chunk; c < chunks_.size();) {
      const Chunk& old = *chunks_[c];
      if (KeyOf()(old.front()) > key) break;
      auto kept = std::make_shared<Chunk>();
      kept->reserve(old.size());
      for (const T& t : old)
        if (KeyOf()(t) != key) kept->push_back(t);
      const size_t gone = old.size() - kept->size();
      removed += gone;
      if (gone == 0) break;
      if (kept->empty()) {
        chunks_.erase(chunks_.begin() + Diff(c));
      } else {
        chunks_[c] = std::move(kept);
        ++c;
      }
    }
    size_ -= removed;
    COMMITLAB_DCHECK(Counted(), "chunks are never empty and size() counts their entries");
    return removed;
  }

 private:
  // A chunk grows to twice this and is then split in halves: small enough that a change copies
  // little, large enough that a copy of the whole copies few chunk pointers. In core_bench's
  // BM_IcebergAppendAttempt 16 wins below a thousand files and 64 at ten thousand; 32 is close
  // to the better of the two at both.
  static constexpr size_t kChunk = 32;
  using Chunk = std::vector<T>;  // sorted by key, never empty

  static std::ptrdiff_t Diff(size_t n) { return static_cast<std::ptrdiff_t>(n); }

  bool IsEntry(Pos p) const { return p.chunk < chunks_.size() && p.index < chunks_[p.chunk]->size(); }
  // Whether `t` may go before `at`: no key before it is greater, none from it on is smaller.
  bool FitsBefore(Pos at, const T& t) const {
    if (chunks_.empty()) return true;
    const std::string_view key = KeyOf()(t);
    if (at != end() && (!IsEntry(at) || key > KeyOf()(this->at(at)))) return false;
    if (at == begin()) return true;
    const T& before = at == end()    ? chunks_.back()->back()
                      : at.index > 0 ? (*chunks_[at.chunk])[at.index - 1]
                                     : chunks_[at.chunk - 1]->back();
    return KeyOf()(before) <= key;
  }
  // For the checks: every chunk holds an entry, and size_ is their sum.
  bool Counted() const {
    size_t n = 0;
    for (const std::shared_ptr<const Chunk>& c : chunks_) {
      if (c->empty()) return false;
      n += c->size();
    }
    return n == size_;
  }

  template <typename Before>
  Pos Bound(std::string_view key, Before before) const {
    const auto c = std::partition_point(chunks_.begin(), chunks_.end(), [&](const std::shared_ptr<const Chunk>& k) {
      return before(KeyOf()(k->back()), key);
    });
    if (c == chunks_.end()) return end();
    const auto i =
        std::partition_point((*c)->begin(), (*c)->end(), [&](const T& t) { return before(KeyOf()(t), key); });
    return {static_cast<size_t>(c - chunks_.begin()), static_cast<size_t>(i - (*c)->begin())};
  }

  std::vector<std::shared_ptr<const Chunk>> chunks_;
  size_t size_ = 0;
};

}  // namespace commitlab::iceberg::internal

#endif  // COMMITLAB_CORE_ICEBERG_CHUNKED_SORTED_H_
