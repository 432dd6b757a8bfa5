// WorkerPool: threads that run batches of independent items (a sweep's runs, a seed hunt's seeds).
//
// Boost.Asio's thread_pool hangs for good when the OS refuses one of its threads (ulimit -u): its
// constructor throws with the threads it started waiting for work that never ends. Start() instead
// reports how far it got and stops what it started. An item that throws (out of memory) does not
// end the process from a worker thread: the first exception is carried to Run()'s caller.
#ifndef COMMITLAB_SIM_WORKER_POOL_H_
#define COMMITLAB_SIM_WORKER_POOL_H_

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "commitlab/core/mutex.h"
#include "commitlab/core/status.h"

namespace commitlab::sim {

class WorkerPool {
 public:
  // `threads` workers in all, the caller of Run() counted as one (so 1 starts no thread); <= 0 means
  // one per core. IOError "cannot start thread K of N: <why>" when the OS refuses one.
  static Result<std::unique_ptr<WorkerPool>> Start(int threads);
  ~WorkerPool();  // stops and joins the workers
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls item(i) for every i in [0, n), on the workers and the calling thread, and returns when all
  // have returned. Items must not depend on each other or on which thread runs them. The first
  // exception an item throws is rethrown here once every item has ended (the rest still run).
  // REQUIRES: one Run at a time.
  void Run(size_t n, const std::function<void(size_t)>& item);

 private:
  WorkerPool() = default;
  void WorkerLoop();
  // Takes and runs items of the current batch until none is left. REQUIRES: mu_ not held.
  void Drain();

  Mutex mu_;
  CondVar cv_;
  bool stop_ GUARDED_BY(mu_) = false;
  uint64_t batch_ GUARDED_BY(mu_) = 0;  // bumped by each Run, so a worker joins each batch once
  const std::function<void(size_t)>* item_ GUARDED_BY(mu_) = nullptr;
  size_t size_ GUARDED_BY(mu_) = 0;
  size_t next_ GUARDED_BY(mu_) = 0;     // the next item to hand out
  size_t running_ GUARDED_BY(mu_) = 0;  // items handed out and not yet returned
  std::exception_ptr error_ GUARDED_BY(mu_);
  std::vector<std::thread> workers_;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_WORKER_POOL_H_
