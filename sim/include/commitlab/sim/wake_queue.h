// WakeQueue: the scheduler's sleeping writers, a binary min-heap by wake-up time.
//
// Writers due at the same instant are in no particular order: the scheduler wakes all of them
// together and lists them by index, so the heap need not break ties, and one integer comparison
// orders it. ReplaceEarliest is Floyd's: the hole goes down to the bottom along the earlier
// children, then the new entry rises from there; a writer going back to sleep usually wakes later
// than most, so it rises little.
//
// The way down has no data-dependent branch (wake times are random, so any such branch is a coin
// toss for the predictor): the slots past the last entry hold sentinels that wake never, the walk
// always takes floor(log2(size)) steps, and a step that would leave the heap stays put instead.
#ifndef COMMITLAB_SIM_WAKE_QUEUE_H_
#define COMMITLAB_SIM_WAKE_QUEUE_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace commitlab::sim {

class WakeQueue {
 public:
  struct Entry {
    int64_t wake_micros;
    int writer;
  };

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // An entry with the earliest wake-up time. REQUIRES: !empty().
  const Entry& earliest() const { return slots_.front(); }

  void Push(Entry e) {
    if (slots_.size() < 2 * (size_ + 1) + 1) slots_.resize(2 * (size_ + 1) + 1, kNever);
    Rise(size_++, e);
  }
  // REQUIRES: !empty().
  void PopEarliest() {
    const Entry last = slots_[--size_];
    slots_[size_] = kNever;
    if (size_ > 0) Rise(HoleToBottom(), last);
  }
  // PopEarliest then Push(e), in one sift. REQUIRES: !empty().
  void ReplaceEarliest(Entry e) { Rise(HoleToBottom(), e); }

 private:
  static constexpr Entry kNever{std::numeric_limits<int64_t>::max(), -1};

  // Moves the hole at the root down to the bottom level, each step lifting the earlier child into
  // it. Slots [size_, 2 * size_ + 1) hold kNever, so both children of any hole can be read. The
  // right child is taken only if strictly earlier, so a real left child always beats a sentinel,
  // even one waking at the same INT64_MAX; when both children are sentinels the hole stays (the
  // copy of a sentinel into it is overwritten by Rise).
  size_t HoleToBottom() {
    size_t hole = 0;
    for (int level = static_cast<int>(std::bit_width(size_)) - 1; level > 0; --level) {
      const size_t left = 2 * hole + 1;
      const size_t child = left + (slots_[left + 1].wake_micros < slots_[left].wake_micros ? 1 : 0);
      slots_[hole] = slots_[child];
      hole = child < size_ ? child : hole;
    }
    return hole;
  }
  // Fills the hole with `e`, moving later parents down first.
  void Rise(size_t hole, Entry e) {
    while (hole > 0) {
      const size_t parent = (hole - 1) / 2;
      if (slots_[parent].wake_micros <= e.wake_micros) break;
      slots_[hole] = slots_[parent];
      hole = parent;
    }
    slots_[hole] = e;
  }

  // slots_[0, size_) is the heap and the rest are kNever; once anything was pushed, there are at
  // least 2 * size_ + 1 slots.
  std::vector<Entry> slots_;
  size_t size_ = 0;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_WAKE_QUEUE_H_
