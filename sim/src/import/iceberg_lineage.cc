#include "iceberg_lineage.h"

#include <algorithm>

namespace commitlab::sim::import::internal {
namespace {

// SplitMix64's finaliser: snapshot ids are random in real tables but sequential in made-up ones,
// and both must spread evenly over the parts.
uint64_t Mix(int64_t id) {
  uint64_t z = static_cast<uint64_t>(id) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

int64_t LineageParts(int64_t entries, int64_t part_entries) {
  return std::max<int64_t>(1, (entries + part_entries - 1) / part_entries);
}

bool LineagePart::Holds(int64_t id) const {
  return parts_ == 1 || static_cast<int64_t>(Mix(id) % static_cast<uint64_t>(parts_)) == part_;
}

void LineagePart::Add(const IcebergLogEntry& e) {
  // As upstream's snapshot history reads the log: the same snapshot twice in a row is one change.
  if (last_ && *last_ == e.snapshot_id) return;
  if (!overflowed_ && Holds(e.snapshot_id)) {
    if (cap_ > 0 && static_cast<int64_t>(entries_.size()) == cap_) {
      overflowed_ = true;  // before the vector grows past the cap
      std::vector<Entry>().swap(entries_);
    } else {
      entries_.push_back({e.snapshot_id, last_.value_or(0), last_ ? index_ : -index_ - 1});
    }
  }
  last_ = e.snapshot_id;
  ++index_;
}

void LineagePart::Finish(std::vector<Rollback>* rollbacks) {
  std::sort(entries_.begin(), entries_.end());  // by id, then log order: no two entries are equal
  size_t kept = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (kept > 0 && entries_[kept - 1].id == entries_[i].id) {
      // A snapshot already current once became current again.
      if (entries_[i].has_before()) rollbacks->push_back({entries_[i].place(), entries_[i].id, entries_[i].before});
      continue;
    }
    entries_[kept++] = entries_[i];
  }
  entries_.resize(kept);
  entries_.shrink_to_fit();
}

std::optional<int64_t> LineagePart::Before(int64_t id) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), id, [](const Entry& e, int64_t v) { return e.id < v; });
  if (it == entries_.end() || it->id != id || !it->has_before()) return std::nullopt;
  return it->before;
}

std::vector<int64_t> LineagePart::Befores() const {
  std::vector<int64_t> out;
  for (const Entry& e : entries_)
    if (e.has_before()) out.push_back(e.before);
  return out;
}

}  // namespace commitlab::sim::import::internal
