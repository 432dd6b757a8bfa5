// PersistentVector<T>: a sequence read like a const std::vector<T>, whose copies share storage.
// A table's retained snapshots and a snapshot's manifests are each its parent's plus one entry,
// and every commit attempt builds them anew: a std::vector copy there costs one reference count
// per entry (atomic, as the metadata is shared between threads), which grows with the table and
// made a run quadratic. Here a copy costs two pointer copies, and push_back copies the partial
// last chunk (under kChunk entries) and, on every kChunk-th push, the list of full chunks.
//
// Layout: `full_` lists the full chunks of kChunk entries, `tail_` holds the rest (fewer than
// kChunk, null when none). Both are shared between copies and never changed once built: a change
// builds new ones, so readers on other threads need no lock.
#ifndef COMMITLAB_CORE_ICEBERG_PERSISTENT_VECTOR_H_
#define COMMITLAB_CORE_ICEBERG_PERSISTENT_VECTOR_H_

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/position_iterator.h"

namespace commitlab::iceberg {

template <typename T>
class PersistentVector {
 public:
  using value_type = T;

  using const_iterator = internal::PositionIterator<PersistentVector, size_t, T>;
  using iterator = const_iterator;

  PersistentVector() = default;
  explicit PersistentVector(const std::vector<T>& items) {
    auto full = std::make_shared<Chunks>();
    size_t i = 0;
    for (; i + kChunk <= items.size(); i += kChunk)
      full->push_back(std::make_shared<const Chunk>(items.begin() + Diff(i), items.begin() + Diff(i + kChunk)));
    if (!full->empty()) full_ = std::move(full);
    if (i < items.size()) tail_ = std::make_shared<const Chunk>(items.begin() + Diff(i), items.end());
  }

  size_t size() const { return full_count() * kChunk + (tail_ ? tail_->size() : 0); }
  bool empty() const { return size() == 0; }
  // REQUIRES for these four: i < size(), !empty().
  const T& operator[](size_t i) const {
    COMMITLAB_DCHECK(i < size(), "an index stays below size()");
    const size_t chunk = i / kChunk;
    return chunk < full_count() ? (*(*full_)[chunk])[i % kChunk] : (*tail_)[i % kChunk];
  }
  const T& at(size_t i) const { return (*this)[i]; }
  size_t Next(size_t i) const { return i + 1; }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  // Leaves the vector as it was if it throws.
  void push_back(T t) {
    auto tail = std::make_shared<Chunk>();
    tail->reserve(kChunk);
    if (tail_ != nullptr) tail->assign(tail_->begin(), tail_->end());
    tail->push_back(std::move(t));
    if (tail->size() < kChunk) {
      tail_ = std::move(tail);
      return;
    }
    auto full = full_ ? std::make_shared<Chunks>(*full_) : std::make_shared<Chunks>();
    full->push_back(std::move(tail));
    full_ = std::move(full);
    tail_.reset();
    COMMITLAB_DCHECK(full_->back()->size() == kChunk, "only full chunks move to the list of full chunks");
  }
  // Replaces entry `i`, rebuilding the whole vector (tests change a snapshot in place with it).
  // REQUIRES: i < size().
  void set(size_t i, T t) {
    COMMITLAB_CHECK(i < size(), "set() replaces an entry; push_back adds one");
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
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

 private:
  // Small enough that the tail copied by a push_back is short, large enough that the list of
  // full chunks copied once per kChunk pushes is short too.
  static constexpr size_t kChunk = 16;
  using Chunk = std::vector<T>;
  using Chunks = std::vector<std::shared_ptr<const Chunk>>;

  static std::ptrdiff_t Diff(size_t n) { return static_cast<std::ptrdiff_t>(n); }
  size_t full_count() const { return full_ ? full_->size() : 0; }

  std::shared_ptr<const Chunks> full_;
  std::shared_ptr<const Chunk> tail_;  // 1 to kChunk - 1 entries, or null
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_PERSISTENT_VECTOR_H_
