// SnapshotStore: where snapshots, manifests and data files live. The one atomic primitive is
// Publish(snapshot N): create-if-absent. Everything else is written before it and is invisible
// garbage if the publish never lands.
#ifndef COMMITLAB_CORE_STORE_H_
#define COMMITLAB_CORE_STORE_H_

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/check.h"
#include "commitlab/core/model.h"
#include "commitlab/core/status.h"

namespace commitlab {

enum class PublishOutcome {
  kPublished,      // snapshot N is ours
  kAlreadyExists,  // someone else took N: lost the race, nothing written
  kError,          // the call failed; whether N took effect is unknown to the caller, unless its
                   // status is NotFound: then the store refused and nothing took effect
};

// A published snapshot, shared and immutable: a store in memory hands out the one it holds
// instead of a copy.
using SnapshotRef = std::shared_ptr<const Snapshot>;

// Snapshots in id order, each shared with whatever else holds it (the store a chain was read back
// from): it reads like a std::vector<Snapshot>, and a chain of a million snapshots copies none.
class SnapshotChain {
 public:
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Snapshot;
    using difference_type = std::ptrdiff_t;
    using pointer = const Snapshot*;
    using reference = const Snapshot&;

    const_iterator() = default;
    explicit const_iterator(std::vector<SnapshotRef>::const_iterator it) : it_(it) {}
    reference operator*() const { return **it_; }
    pointer operator->() const { return it_->get(); }
    reference operator[](difference_type n) const { return *it_[n]; }
    const_iterator& operator++() { return ++it_, *this; }
    const_iterator operator++(int) { return const_iterator(it_++); }
    const_iterator& operator--() { return --it_, *this; }
    const_iterator operator--(int) { return const_iterator(it_--); }
    const_iterator& operator+=(difference_type n) { return it_ += n, *this; }
    const_iterator& operator-=(difference_type n) { return it_ -= n, *this; }
    friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
    friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
    friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) { return a.it_ - b.it_; }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.it_ == b.it_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.it_ <=> b.it_; }

   private:
    std::vector<SnapshotRef>::const_iterator it_;
  };
  using value_type = Snapshot;
  using iterator = const_iterator;

  SnapshotChain() = default;
  // Each snapshot made shared (a chain read from files, or built by hand).
  SnapshotChain(std::vector<Snapshot> snapshots);  // NOLINT(google-explicit-constructor): reads as one

  size_t size() const { return refs_.size(); }
  bool empty() const { return refs_.empty(); }
  const Snapshot& operator[](size_t i) const { return *refs_[i]; }
  const Snapshot& front() const { return *refs_.front(); }
  const Snapshot& back() const { return *refs_.back(); }
  const_iterator begin() const { return const_iterator(refs_.begin()); }
  const_iterator end() const { return const_iterator(refs_.end()); }
  void push_back(Snapshot s) { refs_.push_back(std::make_shared<const Snapshot>(std::move(s))); }
  void push_back(SnapshotRef s) {
    COMMITLAB_CHECK(s != nullptr, "a chain holds snapshots, never null: its iterator and front() dereference each");
    refs_.push_back(std::move(s));
  }

  const std::vector<SnapshotRef>& refs() const { return refs_; }
  std::vector<SnapshotRef>* mutable_refs() { return &refs_; }
  // By value: the same snapshots, shared or not.
  bool operator==(const SnapshotChain& o) const;

 private:
  std::vector<SnapshotRef> refs_;  // never null
};

struct PublishResult {
  PublishOutcome outcome = PublishOutcome::kError;
  Status error;  // set when outcome == kError
};

class SnapshotStore {
 public:
  virtual ~SnapshotStore() = default;

  // The latest published snapshot with its changes, or nullopt for an empty table.
  virtual Result<std::optional<Snapshot>> LatestSnapshot() = 0;
  // The same as a shared reference, null for an empty table. A committer reads the latest snapshot
  // once per attempt, and copying it was most of a simulated sweep's cost; a store in memory
  // answers with the snapshot it holds. The default wraps LatestSnapshot.
  virtual Result<SnapshotRef> LatestSnapshotRef() {
    COMMITLAB_ASSIGN_OR_RETURN(std::optional<Snapshot> r, LatestSnapshot());
    if (!r.has_value()) return SnapshotRef();
    return SnapshotRef(std::make_shared<const Snapshot>(std::move(*r)));
  }
  virtual Result<Snapshot> ReadSnapshot(int64_t id) = 0;
  // Snapshot `id` as a shared reference. A committer's idempotency scan reads every snapshot
  // published since its last attempt, and with hundreds of writers a copy of each was most of an
  // attempt's cost; a store in memory answers with the snapshot it holds. The default wraps
  // ReadSnapshot.
  virtual Result<SnapshotRef> ReadSnapshotRef(int64_t id) {
    Result<Snapshot> r = ReadSnapshot(id);
    if (!r.ok()) return r.status();
    return SnapshotRef(std::make_shared<const Snapshot>(std::move(*r)));
  }
  // Writes a manifest holding `changes` under `name` (chosen by the caller, unique).
  virtual Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) = 0;
  // Atomically creates snapshot `s.id`. `s.delta_manifest` names a manifest already written.
  virtual PublishResult Publish(const Snapshot& s) = 0;
  // Data files are written by writers before they commit; a store may keep them as real files.
  virtual Status WriteDataFile(const DataFile& f) = 0;
  virtual bool DataFileExists(const DataFile& f) = 0;
  // Removes a data file behind the table's back (an operator's rm, an orphan-file cleanup run too
  // early): the snapshots still name it. NotFound when it is not there.
  virtual Status DeleteDataFile(const DataFile& f) = 0;
  // Every manifest and data file name the store holds (for the orphan-file tally).
  virtual std::vector<std::string> ListManifests() = 0;
  virtual std::vector<std::string> ListDataFiles() = 0;
  // Every manifest and data file name, as the two lists hold them but in any order, and a name
  // possibly more than once; `f` must not call the store. Counting orphans after a long run, a
  // store in memory lists millions of names, and the lists are copies. The default lists them.
  virtual void ForEachFile(const std::function<void(std::string_view)>& f) {
    for (const std::vector<std::string>& names : {ListManifests(), ListDataFiles()})
      for (const std::string& name : names) f(name);
  }
};

// Reads snapshots 1..latest back from the store, in id order, as a checker does after a run.
Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain);
// The same as shared references: a store in memory hands out the snapshots it holds, uncopied.
Status ReadChain(SnapshotStore* store, SnapshotChain* chain);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_STORE_H_
