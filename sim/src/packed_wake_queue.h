// PackedWakeQueue: WakeQueue (sim/wake_queue.h) with each entry packed into one 64-bit key,
// wake << bits | writer, for Brooker's event loop (brooker_run.cc), where the heap is a quarter of
// the work: a step of the sift moves one word and compares one, instead of two of each. The same
// Floyd sift, the same sentinels and no data-dependent branch on the way down.
//
// Ties between writers due at the same instant come out by index here and in no particular order
// from WakeQueue; neither matters, as everyone due at an instant is woken together and listed by
// index. A wake-up time must fit in the bits the writer index leaves (fits(): below 2^49 us, 17
// years, with up to 16,383 writers); the loop hands a run that would pass it to the committer.
#ifndef COMMITLAB_SIM_PACKED_WAKE_QUEUE_H_
#define COMMITLAB_SIM_PACKED_WAKE_QUEUE_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "commitlab/sim/wake_queue.h"

namespace commitlab::sim::internal {

class PackedWakeQueue {
 public:
  using Entry = WakeQueue::Entry;

  // REQUIRES: writers >= 1; every writer pushed is in [0, writers).
  explicit PackedWakeQueue(int writers)
      : bits_(static_cast<int>(std::bit_width(static_cast<uint64_t>(writers)))),
        writer_mask_((uint64_t{1} << bits_) - 1),
        max_wake_(std::numeric_limits<int64_t>::max() >> bits_) {}

  bool fits(int64_t wake_micros) const { return wake_micros >= 0 && wake_micros <= max_wake_; }
  bool empty() const { return size_ == 0; }
  // REQUIRES: !empty().
  int64_t earliest_wake() const { return static_cast<int64_t>(slots_.front() >> bits_); }
  Entry earliest() const { return {earliest_wake(), static_cast<int>(slots_.front() & writer_mask_)}; }

  // REQUIRES: fits(e.wake_micros).
  void Push(Entry e) {
    if (slots_.size() < 2 * (size_ + 1) + 1) slots_.resize(2 * (size_ + 1) + 1, kNever);
    Rise(size_++, Key(e));
  }
  // REQUIRES: !empty().
  void PopEarliest() {
    const uint64_t last = slots_[--size_];
    slots_[size_] = kNever;
    if (size_ > 0) Rise(HoleToBottom(), last);
  }
  // PopEarliest then Push(e), in one sift. REQUIRES: !empty(), fits(e.wake_micros).
  void ReplaceEarliest(Entry e) { Rise(HoleToBottom(), Key(e)); }

 private:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();  // above every key

  uint64_t Key(Entry e) const {
    return static_cast<uint64_t>(e.wake_micros) << bits_ | static_cast<uint64_t>(e.writer);
  }

  // WakeQueue::HoleToBottom on keys (see there).
  size_t HoleToBottom() {
    size_t hole = 0;
    for (int level = static_cast<int>(std::bit_width(size_)) - 1; level > 0; --level) {
      const size_t left = 2 * hole + 1;
      const size_t child = left + (slots_[left + 1] < slots_[left] ? 1 : 0);
      slots_[hole] = slots_[child];
      hole = child < size_ ? child : hole;
    }
    return hole;
  }
  void Rise(size_t hole, uint64_t key) {
    while (hole > 0) {
      const size_t parent = (hole - 1) / 2;
      if (slots_[parent] <= key) break;
      slots_[hole] = slots_[parent];
      hole = parent;
    }
    slots_[hole] = key;
  }

  const int bits_;
  const uint64_t writer_mask_;
  const int64_t max_wake_;
  std::vector<uint64_t> slots_;  // [0, size_) the heap, the rest kNever
  size_t size_ = 0;
};

}  // namespace commitlab::sim::internal

#endif  // COMMITLAB_SIM_PACKED_WAKE_QUEUE_H_
