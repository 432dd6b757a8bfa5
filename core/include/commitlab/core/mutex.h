// Mutex, MutexLock, MaybeMutexLock and CondVar: std::mutex and friends with clang's thread-safety
// annotations, so that `clang -Wthread-safety` (the fuzz preset, built by `./run.sh test`, makes
// it an error) checks every GUARDED_BY member is touched only with its mutex held. libstdc++'s
// std::mutex carries no annotations, hence the wrappers (LevelDB's port::Mutex, Abseil's Mutex).
// The macros are empty for GCC.
#ifndef COMMITLAB_CORE_MUTEX_H_
#define COMMITLAB_CORE_MUTEX_H_

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "commitlab/core/check.h"

#if defined(__clang__)
#define COMMITLAB_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define COMMITLAB_THREAD_ANNOTATION(x)
#endif

// The names of https://clang.llvm.org/docs/ThreadSafetyAnalysis.html, spelled as there. Each is
// defined only if nobody has yet (as LevelDB's port/thread_annotations.h does), so a project that
// includes these headers beside its own annotations keeps its definitions.
#ifndef CAPABILITY
#define CAPABILITY(x) COMMITLAB_THREAD_ANNOTATION(capability(x))
#endif
#ifndef SCOPED_CAPABILITY
#define SCOPED_CAPABILITY COMMITLAB_THREAD_ANNOTATION(scoped_lockable)
#endif
#ifndef GUARDED_BY
#define GUARDED_BY(x) COMMITLAB_THREAD_ANNOTATION(guarded_by(x))
#endif
#ifndef PT_GUARDED_BY
#define PT_GUARDED_BY(x) COMMITLAB_THREAD_ANNOTATION(pt_guarded_by(x))
#endif
#ifndef REQUIRES
#define REQUIRES(...) COMMITLAB_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#endif
#ifndef ACQUIRE
#define ACQUIRE(...) COMMITLAB_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#endif
#ifndef RELEASE
#define RELEASE(...) COMMITLAB_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#endif
#ifndef EXCLUDES
#define EXCLUDES(...) COMMITLAB_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#endif
#ifndef ASSERT_CAPABILITY
#define ASSERT_CAPABILITY(x) COMMITLAB_THREAD_ANNOTATION(assert_capability(x))
#endif

namespace commitlab {

// It remembers which thread holds it, so that a function the analysis can only annotate
// (REQUIRES) checks at run time too, in every build and with GCC: AssertHeld. Remembering costs a
// relaxed store at each Lock and Unlock; only the holder reads its own store back.
class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() {
    mu_.lock();
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  void Unlock() RELEASE() {
    COMMITLAB_CHECK(HeldByMe(), "a mutex is unlocked by the thread that locked it");
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    mu_.unlock();
  }
  // Fails a check unless the calling thread holds the mutex: for the REQUIRES(mu) functions.
  void AssertHeld() const ASSERT_CAPABILITY(this) {
    COMMITLAB_CHECK(HeldByMe(), "a function marked REQUIRES(mu) runs with mu held by its thread");
  }

 private:
  friend class CondVar;
  bool HeldByMe() const { return owner_.load(std::memory_order_relaxed) == std::this_thread::get_id(); }

  std::mutex mu_;
  std::atomic<std::thread::id> owner_{};  // the holder, or no thread
};

// Holds `mu` for its scope.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() RELEASE() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

// Holds `mu` for its scope when `enabled`. A class that is safe for many threads only when asked
// to be (MemoryStore: a simulation runs every writer on one thread and pays for no lock) uses it;
// the analysis counts `mu` as held either way, which is the contract: without the lock, only one
// thread uses the object.
class SCOPED_CAPABILITY MaybeMutexLock {
 public:
  MaybeMutexLock(Mutex* mu, bool enabled) ACQUIRE(mu) : mu_(enabled ? mu : nullptr) {
    if (mu_ != nullptr) mu_->Lock();
  }
  ~MaybeMutexLock() RELEASE() {
    if (mu_ != nullptr) mu_->Unlock();
  }
  MaybeMutexLock(const MaybeMutexLock&) = delete;
  MaybeMutexLock& operator=(const MaybeMutexLock&) = delete;

 private:
  Mutex* const mu_;
};

// A condition variable. Wait(mu) releases `mu` while it blocks and holds it again when it returns,
// as std::condition_variable::wait does; every waiter of one CondVar passes the same Mutex.
class CondVar {
 public:
  CondVar() = default;
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  // May return spuriously: wait in a loop over the condition.
  void Wait(Mutex* mu) REQUIRES(mu) {
    mu->AssertHeld();
    // While it waits the mutex is free for others, who record themselves as its holder.
    mu->owner_.store(std::thread::id(), std::memory_order_relaxed);
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();  // still held: the caller's MutexLock unlocks it
    mu->owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  void SignalAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_MUTEX_H_
