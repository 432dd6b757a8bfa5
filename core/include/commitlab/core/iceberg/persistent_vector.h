// PersistentVector<T>: a sequence read like a const std::vector<T>, whose copies share storage.
// A table's retained snapshots and a snapshot's manifests are each its parent's plus one entry,
// and every commit attempt builds them anew: a std::vector copy there costs one reference count
// per entry (atomic, as the metadata is shared between threads), which grows with the table and
// made a run quadratic. Here a copy costs two pointer copies and push_back copies at most the
// last partial chunk.
//
// Layout: `full_` lists the full chunks of kChunk entries, `tail_` holds the rest (fewer than
// kChunk, null when none). Both are shared between copies and never changed once shared: a
// change copies what it touches, except that an unshared tail grows in place.
#ifndef COMMITLAB_CORE_ICEBERG_PERSISTENT_VECTOR_H_
#define COMMITLAB_CORE_ICEBERG_PERSISTENT_VECTOR_H_

#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace commitlab::iceberg {

template <typename T>
class PersistentVector {
 public:
  using value_type = T;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using difference_type = std::ptrdiff_t;
    using value_type = T;
    using pointer = const T*;
    using reference = const T&;

    const_iterator() = default;
    const T& operator*() const { return (*owner_)[index_]; }
    const T* operator->() const { return &(*owner_)[index_]; }
    const_iterator& operator++() {
      ++index_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++index_;
      return before;
    }
    bool operator==(const const_iterator& o) const { return index_ == o.index_; }

   private:
    friend class PersistentVector;
    const_iterator(const PersistentVector* owner, size_t index) : owner_(owner), index_(index) {}
    const PersistentVector* owner_ = nullptr;
    size_t index_ = 0;
  };
  using iterator = const_iterator;

  PersistentVector() = default;
  explicit PersistentVector(const std::vector<T>& items) {
    for (const T& t : items) push_back(t);
  }

  size_t size() const { return full_count() * kChunk + (tail_ ? tail_->size() : 0); }
  bool empty() const { return size() == 0; }
  // REQUIRES for these three: i < size(), !empty().
  const T& operator[](size_t i) const {
    const size_t chunk = i / kChunk;
    return chunk < full_count() ? (*(*full_)[chunk])[i % kChunk] : (*tail_)[i % kChunk];
  }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  void push_back(T t) {
    if (tail_ == nullptr) {
      auto fresh = std::make_shared<Chunk>();
      fresh->reserve(kChunk);
      tail_ = std::move(fresh);
    } else if (tail_.use_count() != 1) {
      auto copy = std::make_shared<Chunk>();
      copy->reserve(kChunk);
      copy->insert(copy->end(), tail_->begin(), tail_->end());
      tail_ = std::move(copy);
    }
    // Unshared now: this vector is its only owner and no other thread can reach it.
    const_cast<Chunk&>(*tail_).push_back(std::move(t));
    if (tail_->size() < kChunk) return;
    auto grown = full_ ? std::make_shared<Chunks>(*full_) : std::make_shared<Chunks>();
    grown->push_back(std::move(tail_));
    full_ = std::move(grown);
  }
  // Replaces entry `i`. REQUIRES: i < size().
  void set(size_t i, T t) {
    std::vector<T> all = ToVector();
    all[i] = std::move(t);
    *this = PersistentVector(all);
  }
  void clear() { *this = PersistentVector(); }
  // Removes the entries `pred` holds for, keeping the order of the rest; how many went.
  template <typename Pred>
  size_t erase_if(Pred pred) {
    std::vector<T> kept;
    for (const T& t : *this)
      if (!pred(t)) kept.push_back(t);
    const size_t removed = size() - kept.size();
    if (removed != 0) *this = PersistentVector(kept);
    return removed;
  }
  std::vector<T> ToVector() const { return {begin(), end()}; }

 private:
  // Small enough that the tail copied by a push_back is short, large enough that the list of
  // full chunks copied once per kChunk pushes is short too.
  static constexpr size_t kChunk = 16;
  using Chunk = std::vector<T>;
  using Chunks = std::vector<std::shared_ptr<const Chunk>>;

  size_t full_count() const { return full_ ? full_->size() : 0; }

  std::shared_ptr<const Chunks> full_;
  std::shared_ptr<const Chunk> tail_;  // 1 to kChunk - 1 entries, or null
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_PERSISTENT_VECTOR_H_
