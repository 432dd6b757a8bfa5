#include "commitlab/core/delta/conflict_matrix.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "commitlab/core/delta/conflict_checker.h"

namespace commitlab::delta {
namespace {

using Key = std::tuple<Operation, Operation, IsolationLevel>;

std::map<Key, MatrixCell> Cells() {
  std::map<Key, MatrixCell> out;
  for (MatrixCell& c : RunConflictMatrix()) out[{c.winner, c.loser, c.level}] = std::move(c);
  return out;
}

TEST(DeltaConflictMatrixTest, RunsEveryOrderedPairAtBothLevels) {
  std::vector<MatrixCell> cells = RunConflictMatrix();
  ASSERT_EQ(cells.size(), 50u);
  EXPECT_EQ(cells.front().winner, Operation::kInsert);
  EXPECT_EQ(cells.front().level, IsolationLevel::kSerializable);
  EXPECT_EQ(cells.back().level, IsolationLevel::kWriteSerializable);
  for (const MatrixCell& c : cells) {
    EXPECT_NE(c.outcome, "error") << c.message;
    EXPECT_EQ(c.committed, c.outcome == "commits");
    EXPECT_EQ(c.committed, c.loser_version == 2);
    EXPECT_EQ(c.committed, c.message.empty());
  }
}

TEST(DeltaConflictMatrixTest, MatchesTheReferenceForEveryPair) {
  std::map<Key, MatrixCell> cells = Cells();
  for (IsolationLevel level : {IsolationLevel::kSerializable, IsolationLevel::kWriteSerializable}) {
    for (Operation a : MatrixOperations()) {
      for (Operation b : MatrixOperations()) {
        // "Can conflict" for a pair: some commit order makes the second one fail.
        const bool conflicted = !cells.at({a, b, level}).committed || !cells.at({b, a, level}).committed;
        EXPECT_EQ(conflicted, ReferenceCanConflict(a, b, level))
            << OperationName(a) << " / " << OperationName(b) << " under " << IsolationLevelName(level);
      }
    }
  }
}

TEST(DeltaConflictMatrixTest, InsertThenUpdateDependsOnTheIsolationLevel) {
  std::map<Key, MatrixCell> cells = Cells();
  const MatrixCell& s = cells.at({Operation::kInsert, Operation::kUpdate, IsolationLevel::kSerializable});
  EXPECT_EQ(s.outcome, kConcurrentAppendException);
  const MatrixCell& ws = cells.at({Operation::kInsert, Operation::kUpdate, IsolationLevel::kWriteSerializable});
  EXPECT_EQ(ws.outcome, "commits");
  EXPECT_EQ(ws.loser_level, IsolationLevel::kWriteSerializable);
  // The other order never conflicts: a blind append read nothing.
  EXPECT_EQ(cells.at({Operation::kUpdate, Operation::kInsert, IsolationLevel::kSerializable}).outcome, "commits");
}

TEST(DeltaConflictMatrixTest, OptimizeRunsAtSnapshotIsolation) {
  std::map<Key, MatrixCell> cells = Cells();
  const MatrixCell& after_insert = cells.at({Operation::kInsert, Operation::kOptimize, IsolationLevel::kSerializable});
  EXPECT_EQ(after_insert.outcome, "commits");
  EXPECT_EQ(after_insert.loser_level, IsolationLevel::kSnapshotIsolation);
  EXPECT_EQ(cells.at({Operation::kUpdate, Operation::kOptimize, IsolationLevel::kWriteSerializable}).outcome,
            kConcurrentDeleteReadException);
  EXPECT_EQ(cells.at({Operation::kOptimize, Operation::kOptimize, IsolationLevel::kSerializable}).outcome,
            kConcurrentDeleteReadException);
  // The winner's compacted file is not a blind append, so an UPDATE of x=1 must re-read.
  EXPECT_EQ(cells.at({Operation::kOptimize, Operation::kUpdate, IsolationLevel::kWriteSerializable}).outcome,
            kConcurrentAppendException);
}

TEST(DeltaConflictMatrixTest, RewritesConflictAtBothLevels) {
  std::map<Key, MatrixCell> cells = Cells();
  for (IsolationLevel level : {IsolationLevel::kSerializable, IsolationLevel::kWriteSerializable}) {
    EXPECT_EQ(cells.at({Operation::kUpdate, Operation::kMerge, level}).outcome, kConcurrentAppendException);
    EXPECT_EQ(cells.at({Operation::kDelete, Operation::kUpdate, level}).outcome, kConcurrentDeleteReadException);
    EXPECT_EQ(cells.at({Operation::kInsert, Operation::kInsert, level}).outcome, "commits");
  }
}

TEST(DeltaConflictMatrixTest, IdenticalRunsGiveIdenticalCells) {
  std::vector<MatrixCell> a = RunConflictMatrix();
  std::vector<MatrixCell> b = RunConflictMatrix();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].message, b[i].message);
}

}  // namespace
}  // namespace commitlab::delta
