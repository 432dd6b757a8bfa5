// Fiber: one stackful execution context (Boost.Context) with the stack-switch annotations that
// ASan (COMMITLAB_ASAN_FIBERS) and TSan (COMMITLAB_TSAN_FIBERS) need to follow it. The scheduler
// runs each simulated writer on one. A switch is a few nanoseconds; no OS thread is involved.
//
// The thread's own context resumes a fiber (Resume); a running fiber may hand over straight to
// another (SwitchTo: one stack switch, not two through the thread's context) or go back
// (Suspend). Resume returns when control comes back to the thread: a fiber suspended or finished,
// perhaps another one than it resumed; last_returned() says which.
//
// Rules: only the thread that created a fiber resumes it, and a fiber runs its body to the end
// before it is destroyed. Destroying a suspended fiber would make Boost unwind its stack with an
// exception through the engine; the scheduler never does that.
#ifndef COMMITLAB_SIM_FIBER_H_
#define COMMITLAB_SIM_FIBER_H_

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <functional>

namespace commitlab::sim {

class Fiber {
 public:
#if defined(COMMITLAB_ASAN_FIBERS) || defined(COMMITLAB_TSAN_FIBERS)
  static constexpr size_t kDefaultStackSize = size_t{1} << 20;  // sanitizer frames are fat
#else
  static constexpr size_t kDefaultStackSize = size_t{256} << 10;
#endif

  // The stack is allocated on the first Resume(), so a fiber that never runs costs nothing.
  explicit Fiber(std::function<void()> body, size_t stack_size = kDefaultStackSize);
  ~Fiber();  // REQUIRES: never started, or finished
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // From the thread's own context: runs this fiber until a fiber (this one, or one it handed over
  // to) suspends or finishes; then returns. A finished fiber's stack is already freed.
  // REQUIRES: !finished(), and this fiber is not running. May be called from inside another
  // fiber (a run within a run): the inner run ends before the outer fiber continues.
  void Resume();
  // From inside this fiber: returns control to the Resume() caller; returns on the next switch to
  // this fiber.
  void Suspend();
  // From inside this fiber: runs `next` instead; returns when some fiber switches back to this one
  // (or this one is resumed). REQUIRES: &next != this, !next.finished(), `next` not running.
  void SwitchTo(Fiber& next);
  // The fiber whose suspension or end made the last Resume() on this thread return.
  static Fiber* last_returned();

  // Destroys the body (and what it captured) of a finished fiber. REQUIRES: finished().
  void ReleaseBody();

  bool started() const { return started_; }
  bool finished() const { return finished_; }

 private:
  void Create();
  boost::context::fiber Entry(boost::context::fiber&& from);
  // Right after a switch lands: finishes ASan's switch (`fake_stack` as saved when this context
  // left) and files `from`, the context that switched here, with its owner.
  static void Arrived(void* fake_stack, boost::context::fiber&& from);

  std::function<void()> body_;
  const size_t stack_size_;
  bool started_ = false;
  bool finished_ = false;
  boost::context::fiber self_;                   // this fiber, while suspended
  boost::context::stack_context stack_;          // where our stack lies (for ASan)
  [[maybe_unused]] void* tsan_fiber_ = nullptr;  // TSan's context for this fiber; unused in plain builds
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_FIBER_H_
