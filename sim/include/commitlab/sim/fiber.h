// Fiber: one stackful execution context (Boost.Context) with the stack-switch annotations that
// ASan (COMMITLAB_ASAN_FIBERS) and TSan (COMMITLAB_TSAN_FIBERS) need to follow it. The scheduler
// runs each simulated writer on one. A switch is a few nanoseconds; no OS thread is involved.
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
  ~Fiber() = default;
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Runs the body until it calls Suspend() or returns; then returns. When the body has returned,
  // its stack is already freed. REQUIRES: !finished(), and not called from inside this fiber.
  void Resume();
  // From inside the body: returns control to the Resume() caller. Returns on the next Resume().
  void Suspend();

  bool started() const { return started_; }
  bool finished() const { return finished_; }

 private:
  void Create();
  boost::context::fiber Entry(boost::context::fiber&& caller);

  std::function<void()> body_;
  const size_t stack_size_;
  bool started_ = false;
  bool finished_ = false;
  boost::context::fiber self_;    // this fiber, while suspended
  boost::context::fiber caller_;  // whoever resumed us, while we run
  boost::context::stack_context stack_;  // where our stack lies (for ASan)
  // Sanitizer bookkeeping; unused in plain builds.
  const void* caller_stack_bottom_ = nullptr;
  size_t caller_stack_size_ = 0;
  void* tsan_fiber_ = nullptr;   // TSan's context for this fiber
  void* tsan_caller_ = nullptr;  // TSan's context for the resumer
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_FIBER_H_
