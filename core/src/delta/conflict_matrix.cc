#include "commitlab/core/delta/conflict_matrix.h"

#include <string_view>
#include <utility>

#include "commitlab/core/delta/conflict_checker.h"
#include "commitlab/core/delta/log_store.h"
#include "commitlab/core/delta/transaction.h"
#include "commitlab/core/env.h"

namespace commitlab::delta {
namespace {

// A still Env: the matrix runs one transaction at a time on the caller's thread, so it needs no
// clock, latency or faults, and a fixed random stream keeps identical runs identical.
class StillEnv final : public Env {
 public:
  int64_t NowMicros() override { return 0; }
  void SleepMicros(int64_t) override {}
  Rng& rng() override { return rng_; }
  void BeginStorageOp(StorageOp) override {}
  void EndStorageOp(StorageOp) override {}
  Status FaultPoint(std::string_view) override { return Status::OK(); }

 private:
  Rng rng_{0};
};

DataFile PartFile(std::string name, std::string partition, int64_t rows) {
  return DataFile{.name = std::move(name), .partition = std::move(partition), .row_count = rows};
}

// Version 0: the table, partitioned by x, with two files in x=1 and one in x=2.
Status CreateTable(DeltaLog& log, Env& env, IsolationLevel level, EventSink* events) {
  Result<OptimisticTransaction> txn = OptimisticTransaction::Start("setup", &log, &env, events);
  if (!txn.ok()) return txn.status();
  txn->UpdateMetadata(Metadata{.id = "matrix",
                               .schema = "id INT, x INT",
                               .partition_columns = {"x"},
                               .configuration = {{std::string(kIsolationLevelProperty),
                                                  std::string(IsolationLevelName(level))}}});
  txn->Add(PartFile("part-x1-0.parquet", "x=1", 10));
  txn->Add(PartFile("part-x1-1.parquet", "x=1", 10));
  txn->Add(PartFile("part-x2-0.parquet", "x=2", 10));
  return txn->Commit(Operation::kCreateTable).status();
}

// Records the reads and stages the actions of `op` as the header describes.
void Stage(OptimisticTransaction& txn, Operation op) {
  const std::string own = txn.writer() + "-" + std::string(OperationName(op)) + ".parquet";
  if (op == Operation::kInsert) {
    txn.Add(PartFile("insert-" + own, "x=1", 5));
    return;
  }
  std::vector<DataFile> read = txn.FilterFiles({"x=1"});
  switch (op) {
    case Operation::kUpdate:
      txn.Remove(read[0]);
      txn.Add(PartFile("update-" + own, "x=1", read[0].row_count));
      break;
    case Operation::kDelete:
      txn.Remove(read[0]);
      break;
    case Operation::kMerge:
      txn.Remove(read[0]);
      txn.Add(PartFile("merge-" + own, "x=1", read[0].row_count + 5));
      break;
    default: {  // OPTIMIZE: bin-packing rewrites the rows it read, changing no data.
      int64_t rows = 0;
      for (const DataFile& f : read) {
        txn.Remove(f, /*data_change=*/false);
        rows += f.row_count;
      }
      txn.Add(PartFile("optimize-" + own, "x=1", rows), /*data_change=*/false);
      break;
    }
  }
}

MatrixCell RunCell(Operation winner, Operation loser, IsolationLevel level, EventSink* events) {
  MatrixCell cell{.winner = winner, .loser = loser, .level = level};
  StillEnv env;
  MemoryDeltaLog log;
  auto fail = [&](const Status& st) {
    cell.outcome = "error";
    cell.message = st.message();
    return cell;
  };
  if (Status st = CreateTable(log, env, level, events); !st.ok()) return fail(st);
  Result<OptimisticTransaction> w = OptimisticTransaction::Start("winner", &log, &env, events);
  Result<OptimisticTransaction> l = OptimisticTransaction::Start("loser", &log, &env, events);
  if (!w.ok()) return fail(w.status());
  if (!l.ok()) return fail(l.status());
  Stage(*w, winner);
  Stage(*l, loser);
  if (Result<int64_t> v = w->Commit(winner); !v.ok()) return fail(v.status());
  cell.loser_level = l->CommitIsolationLevel(loser);
  Result<int64_t> v = l->Commit(loser);
  cell.committed = v.ok();
  if (v.ok()) {
    cell.outcome = "commits";
    cell.loser_version = *v;
    return cell;
  }
  std::string_view name = ConflictExceptionName(v.status());
  if (name.empty()) return fail(v.status());
  cell.outcome = std::string(name);
  cell.message = v.status().message();
  return cell;
}

bool IsRewrite(Operation op) {
  return op == Operation::kUpdate || op == Operation::kDelete || op == Operation::kMerge;
}

}  // namespace

std::vector<Operation> MatrixOperations() {
  return {Operation::kInsert, Operation::kUpdate, Operation::kDelete, Operation::kMerge, Operation::kOptimize};
}

std::vector<MatrixCell> RunConflictMatrix(const std::vector<Operation>& ops, EventSink* events) {
  std::vector<MatrixCell> cells;
  for (IsolationLevel level : {IsolationLevel::kSerializable, IsolationLevel::kWriteSerializable})
    for (Operation winner : ops)
      for (Operation loser : ops) cells.push_back(RunCell(winner, loser, level, events));
  return cells;
}

bool ReferenceCanConflict(Operation a, Operation b, IsolationLevel level) {
  const bool a_insert = a == Operation::kInsert;
  const bool b_insert = b == Operation::kInsert;
  if (a_insert && b_insert) return false;  // INSERT x INSERT: cannot conflict
  if (a_insert || b_insert) {
    const Operation other = a_insert ? b : a;
    // UPDATE/DELETE/MERGE x INSERT: can conflict in Serializable, cannot in WriteSerializable.
    if (IsRewrite(other)) return level == IsolationLevel::kSerializable;
    return false;  // OPTIMIZE x INSERT: cannot conflict
  }
  return true;  // rewrites and OPTIMIZE among themselves: can conflict at both levels
}

}  // namespace commitlab::delta
