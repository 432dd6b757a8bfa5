// PositionIterator: the forward iterator of a container that reads the entry at a position
// (owner->at(pos)) and steps to the next (owner->Next(pos)), as ChunkedSorted (chunk and index)
// and PersistentVector (an index) do.
#ifndef COMMITLAB_CORE_ICEBERG_POSITION_ITERATOR_H_
#define COMMITLAB_CORE_ICEBERG_POSITION_ITERATOR_H_

#include <cstddef>
#include <iterator>

namespace commitlab::iceberg::internal {

template <typename Owner, typename Pos, typename T>
class PositionIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using difference_type = std::ptrdiff_t;
  using value_type = T;
  using pointer = const T*;
  using reference = const T&;

  PositionIterator() = default;
  PositionIterator(const Owner* owner, Pos pos) : owner_(owner), pos_(pos) {}
  const T& operator*() const { return owner_->at(pos_); }
  const T* operator->() const { return &owner_->at(pos_); }
  PositionIterator& operator++() {
    pos_ = owner_->Next(pos_);
    return *this;
  }
  PositionIterator operator++(int) {
    PositionIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const PositionIterator& o) const { return pos_ == o.pos_; }

 private:
  const Owner* owner_ = nullptr;
  Pos pos_{};
};

}  // namespace commitlab::iceberg::internal

#endif  // COMMITLAB_CORE_ICEBERG_POSITION_ITERATOR_H_
