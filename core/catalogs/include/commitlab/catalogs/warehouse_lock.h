// WarehouseLock: one REST catalog server per warehouse folder. A server checks requirements
// against the tables it has read and then replaces their pointer.json, so two servers on one
// folder would each accept commits built on the other's overwritten pointer and lose them (the
// history forks). The server holds an exclusive flock(2) on <warehouse>/.catalog.lock for its
// life; the kernel drops it when the process ends, however it ends, so a crash leaves no stale
// lock. The file holds the holder's pid, for the message a second server gets.
#ifndef COMMITLAB_CATALOGS_WAREHOUSE_LOCK_H_
#define COMMITLAB_CATALOGS_WAREHOUSE_LOCK_H_

#include <memory>
#include <string>

#include "commitlab/core/status.h"

namespace commitlab::catalogs {

class WarehouseLock {
 public:
  // Takes the lock. InvalidArgument "--warehouse DIR is served by another catalog server (pid N)"
  // when another open file holds it (in this process or another); IOError when the lock file
  // cannot be opened (and it is not replaced when it is not a regular file).
  static Result<std::unique_ptr<WarehouseLock>> Take(const std::string& warehouse);
  ~WarehouseLock();  // releases it
  WarehouseLock(const WarehouseLock&) = delete;
  WarehouseLock& operator=(const WarehouseLock&) = delete;

 private:
  explicit WarehouseLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_WAREHOUSE_LOCK_H_
