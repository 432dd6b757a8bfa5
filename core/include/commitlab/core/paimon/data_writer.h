// The data side of a Paimon writer's commit step: the data file is written before the commit that
// adds it (a write-data storage operation, which is what leaves gaps between one writer's commit
// attempts), then Committer::Commit publishes it. The scenario runner's Paimon writers and the
// retry-policy sweep both take this step.
#ifndef COMMITLAB_CORE_PAIMON_DATA_WRITER_H_
#define COMMITLAB_CORE_PAIMON_DATA_WRITER_H_

#include "commitlab/core/env.h"
#include "commitlab/core/model.h"
#include "commitlab/core/paimon/store.h"
#include "commitlab/core/status.h"

namespace commitlab::paimon {

// Writes `f` through `store`, bracketed as a write-data storage operation of `env`.
inline Status WriteDataFile(Env* env, SnapshotStore* store, const DataFile& f) {
  env->BeginStorageOp(StorageOp::kWriteData);
  Status st = store->WriteDataFile(f);
  env->EndStorageOp(StorageOp::kWriteData);
  return st;
}

}  // namespace commitlab::paimon

#endif  // COMMITLAB_CORE_PAIMON_DATA_WRITER_H_
