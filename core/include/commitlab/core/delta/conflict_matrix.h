// The conflict matrix, produced by running it: for each ordered pair (winner, loser) of
// operations and each table isolation level, two transactions start at the same version of a
// fresh in-memory log, the winner commits, then the loser commits, and the loser's outcome is
// recorded. A lab prints these cells; nothing here is a table of constants except
// ReferenceCanConflict, the documentation's verdict to compare the runs with.
//
// The table (partitioned by x) starts with files part-x1-0 and part-x1-1 in x=1 and part-x2-0 in
// x=2. What each operation does:
//   INSERT    a blind append of one file into x=1 (reads nothing)
//   UPDATE    reads x=1, rewrites part-x1-0 (remove it, add the updated copy)
//   DELETE    reads x=1, removes part-x1-0 (every row of it matched)
//   MERGE     reads x=1, rewrites part-x1-0 (remove it, add the updated and inserted rows)
//   OPTIMIZE  reads x=1, compacts part-x1-0 and part-x1-1 into one file, dataChange=false
#ifndef COMMITLAB_CORE_DELTA_CONFLICT_MATRIX_H_
#define COMMITLAB_CORE_DELTA_CONFLICT_MATRIX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "commitlab/core/delta/actions.h"
#include "commitlab/core/events.h"

namespace commitlab::delta {

struct MatrixCell {
  Operation winner = Operation::kInsert;  // committed first
  Operation loser = Operation::kInsert;   // committed second, from the same read version
  IsolationLevel level = IsolationLevel::kSerializable;        // the table's delta.isolationLevel
  IsolationLevel loser_level = IsolationLevel::kSerializable;  // the level the loser's commit used
  bool committed = false;
  std::string outcome = {};     // "commits" or the exception name
  int64_t loser_version = -1;   // the version the loser wrote, -1 when refused
  std::string message = {};     // the refusal in Delta's words; "" when the loser committed
};

// INSERT, UPDATE, DELETE, MERGE, OPTIMIZE: the operations of the documentation's matrix.
std::vector<Operation> MatrixOperations();

// Every (winner, loser) in ops x ops, for Serializable then WriteSerializable, winner-major.
// Events of every run go to `events` when given (writers "winner" and "loser").
std::vector<MatrixCell> RunConflictMatrix(const std::vector<Operation>& ops = MatrixOperations(),
                                          EventSink* events = nullptr);

// The documented verdict for the unordered pair at a table level (Databricks' matrix without
// row-level concurrency; UPDATE, DELETE and MERGE share a row): true for "can conflict".
// Defined for the operations of MatrixOperations().
bool ReferenceCanConflict(Operation a, Operation b, IsolationLevel level);

}  // namespace commitlab::delta

#endif  // COMMITLAB_CORE_DELTA_CONFLICT_MATRIX_H_
