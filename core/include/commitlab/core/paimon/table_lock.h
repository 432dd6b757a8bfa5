// TableLock: Paimon's CatalogLock (catalog/CatalogLock.java, runWithLock) as a store sees it: a
// lock on one table that a writer holds across the HEAD and the PUT of a rename an object store
// does not make atomic (RenamingSnapshotCommit, lock.enabled). ObjectStore's kLocked mode takes
// one; commitlab_catalogs has one in PostgreSQL, as Paimon's JdbcCatalogLock.
#ifndef COMMITLAB_CORE_TABLE_LOCK_H_
#define COMMITLAB_CORE_TABLE_LOCK_H_

#include "commitlab/core/env.h"
#include "commitlab/core/status.h"

namespace commitlab {

class TableLock {
 public:
  virtual ~TableLock() = default;
  // Waits (through env, so a simulated writer yields) until it holds the lock. An error (a
  // timeout, a lost connection) means it does not hold it.
  virtual Status Acquire(Env* env) = 0;
  // REQUIRES: held by this caller.
  virtual Status Release() = 0;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_TABLE_LOCK_H_
