// One metadata file's snapshot-log joined to its snapshots in memory that does not grow with the
// file (iceberg_metadata.cc). The log says, for each snapshot, which one was current on main
// before it first became current (its parent should be that one: SnapshotProducer builds on the
// current snapshot), and each time a snapshot became current again (a rollback).
//
// Both lists are as long as the table's history and the snapshots' ids are random, so the join
// is done by parts: the log's ids are split by a hash into parts of about `part_entries` entries
// (ImportOptions::memory_entries), and each part is one more pass over the file. A log of up to
// that many entries is one part, collected in the pass that validates the file.
#ifndef COMMITLAB_SIM_SRC_IMPORT_ICEBERG_LINEAGE_H_
#define COMMITLAB_SIM_SRC_IMPORT_ICEBERG_LINEAGE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "iceberg_parse.h"

namespace commitlab::sim::import::internal {

// A snapshot made current again: where in the log, which, and the one current before.
struct Rollback {
  int64_t index = 0;
  int64_t id = 0;
  int64_t before = 0;
};

// The snapshot-log entries of one part: ids whose hash falls in it.
class LineagePart {
 public:
  // Part `part` of `parts`. `cap` > 0: give up (overflowed()) past that many entries.
  LineagePart(int64_t part, int64_t parts, int64_t cap = 0) : part_(part), parts_(parts), cap_(cap) {}

  // Each snapshot-log entry, in file order. A repeat of the entry before it is not a change of
  // the current snapshot.
  void Add(const IcebergLogEntry& e);
  // After the whole log: keeps each id's first entry and adds the later ones to `rollbacks`.
  void Finish(std::vector<Rollback>* rollbacks);

  bool overflowed() const { return overflowed_; }
  bool Holds(int64_t id) const;
  // The snapshot current before `id` first became current, when the log says (after Finish).
  std::optional<int64_t> Before(int64_t id) const;
  // Every snapshot Before can answer (after Finish).
  std::vector<int64_t> Befores() const;

 private:
  // 24 bytes: the entry's place in the log is `index`, negative for the first entry, which has no
  // snapshot before it.
  struct Entry {
    int64_t id = 0;
    int64_t before = 0;
    int64_t index = 0;

    bool has_before() const { return index >= 0; }
    int64_t place() const { return index < 0 ? -index - 1 : index; }
    bool operator<(const Entry& o) const { return id != o.id ? id < o.id : place() < o.place(); }
  };

  int64_t part_;
  int64_t parts_;
  int64_t cap_;
  bool overflowed_ = false;
  std::optional<int64_t> last_ = {};
  int64_t index_ = 0;
  std::vector<Entry> entries_ = {};  // after Finish: each id's first entry, by id
};

// How many parts a log of `entries` entries is joined in, at most `part_entries` each.
int64_t LineageParts(int64_t entries, int64_t part_entries);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_ICEBERG_LINEAGE_H_
