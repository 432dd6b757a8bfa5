// WakeQueue: the scheduler's sleeping writers, a binary min-heap by wake-up time.
//
// Writers due at the same instant are in no particular order: the scheduler wakes all of them
// together and lists them by index, so the heap need not break ties, and one integer comparison
// orders it. The sifts pick a child without a branch (the comparisons of random wake times are
// unpredictable) and ReplaceEarliest is Floyd's: the hole goes down to a leaf along the earlier
// children, then the new entry rises from there; a writer going back to sleep usually wakes later
// than most, so it rises little.
#ifndef COMMITLAB_SIM_WAKE_QUEUE_H_
#define COMMITLAB_SIM_WAKE_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace commitlab::sim {

class WakeQueue {
 public:
  struct Entry {
    int64_t wake_micros;
    int writer;
  };

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // An entry with the earliest wake-up time. REQUIRES: !empty().
  const Entry& earliest() const { return heap_.front(); }

  void Push(Entry e) {
    heap_.push_back(e);
    Rise(heap_.size() - 1, e);
  }
  // REQUIRES: !empty().
  void PopEarliest() {
    const Entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) Rise(HoleToLeaf(), last);
  }
  // PopEarliest then Push(e), in one sift. REQUIRES: !empty().
  void ReplaceEarliest(Entry e) { Rise(HoleToLeaf(), e); }

 private:
  // Moves the hole at the root down to a leaf, each time lifting the earlier child into it.
  size_t HoleToLeaf() {
    const size_t n = heap_.size();
    size_t hole = 0;
    for (size_t child = 1; child < n; child = 2 * hole + 1) {
      if (child + 1 < n) child += heap_[child + 1].wake_micros < heap_[child].wake_micros ? 1 : 0;
      heap_[hole] = heap_[child];
      hole = child;
    }
    return hole;
  }
  // Fills the hole with `e`, moving later parents down first.
  void Rise(size_t hole, Entry e) {
    while (hole > 0) {
      const size_t parent = (hole - 1) / 2;
      if (heap_[parent].wake_micros <= e.wake_micros) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    heap_[hole] = e;
  }

  std::vector<Entry> heap_;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_WAKE_QUEUE_H_
