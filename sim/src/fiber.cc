#include "commitlab/sim/fiber.h"

#include <boost/context/fixedsize_stack.hpp>

#include <new>
#include <utility>
#include <vector>

#include "commitlab/core/check.h"

#if defined(COMMITLAB_ASAN_FIBERS)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(COMMITLAB_TSAN_FIBERS)
#include <sanitizer/tsan_interface.h>
#endif

namespace commitlab::sim {
namespace {

// Stacks of finished fibers, kept by their thread for its next fibers: a sweep starts millions of
// short-lived writers, and a fresh 256 KiB block each (with the heap consolidation its free
// triggers) cost more than all their switches. Not under the sanitizers: a reused stack would
// carry its last fiber's shadow state.
#if defined(COMMITLAB_ASAN_FIBERS) || defined(COMMITLAB_TSAN_FIBERS)
constexpr size_t kCachedStacks = 0;
#else
constexpr size_t kCachedStacks = 256;
#endif

class StackCache {
 public:
  ~StackCache() {
    for (boost::context::stack_context& s : free_) boost::context::fixedsize_stack(s.size).deallocate(s);
  }
  bool Take(size_t size, boost::context::stack_context* out) {
    if (free_.empty() || free_.back().size != size) return false;
    *out = free_.back();
    free_.pop_back();
    return true;
  }
  bool Keep(const boost::context::stack_context& s) noexcept {
    if (free_.size() >= kCachedStacks || (!free_.empty() && free_.back().size != s.size)) return false;
    free_.push_back(s);  // cannot throw: capacity reserved below
    return true;
  }
  StackCache() { free_.reserve(kCachedStacks); }

 private:
  std::vector<boost::context::stack_context> free_;  // all of one size
};

thread_local StackCache stack_cache;

// Boost's fixed-size stack, reused through the thread's cache, that also tells us where the stack
// lies: ASan must be given the bounds of the stack we switch to.
class RecordingStack {
 public:
  RecordingStack(size_t size, boost::context::stack_context* where) : inner_(size), size_(size), where_(where) {}
  // Out of memory, Boost throws std::bad_alloc from inside the fiber's construction, where it cannot
  // always be caught cleanly; like operator new, ask the program's new handler first (the CLI's
  // says so and exits 2), and throw only when there is none.
  boost::context::stack_context allocate() {
    if (stack_cache.Take(size_, where_)) return *where_;
    for (;;) {
      try {
        *where_ = inner_.allocate();
        return *where_;
      } catch (const std::bad_alloc&) {
        std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) throw;
        handler();
      }
    }
  }
  void deallocate(boost::context::stack_context& sctx) noexcept {
    if (!stack_cache.Keep(sctx)) inner_.deallocate(sctx);
  }

 private:
  boost::context::fixedsize_stack inner_;
  size_t size_;
  boost::context::stack_context* where_;
};

// ASan: announce a switch to the stack [bottom, bottom + size) before it, and confirm it after.
// `fake_stack_save` null means the stack we leave is gone for good.
inline void StartSwitch([[maybe_unused]] void** fake_stack_save, [[maybe_unused]] const void* bottom,
                        [[maybe_unused]] size_t size) {
#if defined(COMMITLAB_ASAN_FIBERS)
  __sanitizer_start_switch_fiber(fake_stack_save, bottom, size);
#endif
}
inline void FinishSwitch([[maybe_unused]] void* fake_stack_save, [[maybe_unused]] const void** from_bottom,
                         [[maybe_unused]] size_t* from_size) {
#if defined(COMMITLAB_ASAN_FIBERS)
  __sanitizer_finish_switch_fiber(fake_stack_save, from_bottom, from_size);
#endif
}

// TSan is told about a switch with __tsan_switch_to_fiber immediately before the jump, called
// directly at each site, never through a helper: TSan keeps a shadow call stack per fiber, and a
// helper's entry would be charged to one fiber and its exit to the other. Switching synchronizes,
// so what one writer did is ordered before what the next does, as the baton really orders it.
#if defined(COMMITLAB_TSAN_FIBERS)
#define COMMITLAB_TSAN_SWITCH_TO(fiber) __tsan_switch_to_fiber((fiber), 0)
#else
#define COMMITLAB_TSAN_SWITCH_TO(fiber) static_cast<void>(0)
#endif

// What a switch leaves for the context it switches to. One per thread: a thread's fibers are all
// resumed from, and hand over on, that thread.
struct ThreadSwitch {
  boost::context::fiber home;         // the context that called Resume(), while its fibers run
  Fiber* from = nullptr;              // the fiber switching away; null: the home context
  Fiber* returned = nullptr;          // see Fiber::last_returned()
  const void* home_bottom = nullptr;  // ASan: the home context's stack, learned when it switches out
  size_t home_size = 0;
  void* home_tsan = nullptr;  // TSan: the home context's fiber
};
thread_local ThreadSwitch t_switch;

const void* StackBottom(const boost::context::stack_context& s) { return static_cast<const char*>(s.sp) - s.size; }

}  // namespace

Fiber::Fiber(std::function<void()> body, size_t stack_size) : body_(std::move(body)), stack_size_(stack_size) {}

Fiber::~Fiber() {
  COMMITLAB_CHECK(!started_ || finished_, "a suspended fiber would have its stack unwound by an exception");
}

Fiber* Fiber::last_returned() { return t_switch.returned; }

void Fiber::Create() {
  started_ = true;
#if defined(COMMITLAB_TSAN_FIBERS)
  void* const current = __tsan_get_current_fiber();
  tsan_fiber_ = __tsan_create_fiber(0);
  // Boost's constructor already jumps onto the new stack and back; charge that to the new fiber
  // so the current context's shadow call stack does not keep a frame that never returns there.
  __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
  self_ = boost::context::fiber(std::allocator_arg, RecordingStack(stack_size_, &stack_),
                                [this](boost::context::fiber&& from) { return Entry(std::move(from)); });
  COMMITLAB_TSAN_SWITCH_TO(current);
}

void Fiber::Arrived(void* fake_stack, boost::context::fiber&& from) {
  ThreadSwitch& t = t_switch;
  const void* from_bottom = nullptr;
  size_t from_size = 0;
  FinishSwitch(fake_stack, &from_bottom, &from_size);
  if (t.from == nullptr) {
    t.home = std::move(from);
    t.home_bottom = from_bottom;
    t.home_size = from_size;
  } else {
    t.from->self_ = std::move(from);
  }
}

void Fiber::Resume() {
  COMMITLAB_CHECK(!finished_, "a finished fiber is not resumed");
  if (!started_) Create();
  ThreadSwitch& t = t_switch;
  // Called from inside a fiber (a run within a run), the outer run's home is kept for later.
  boost::context::fiber outer_home = std::move(t.home);
  const void* const outer_bottom = t.home_bottom;
  const size_t outer_size = t.home_size;
  void* const outer_tsan = t.home_tsan;
#if defined(COMMITLAB_TSAN_FIBERS)
  t.home_tsan = __tsan_get_current_fiber();
#endif
  t.from = nullptr;
  void* fake_stack = nullptr;
  StartSwitch(&fake_stack, StackBottom(stack_), stack_.size);
  COMMITLAB_TSAN_SWITCH_TO(tsan_fiber_);
  boost::context::fiber back = std::move(self_).resume();
  FinishSwitch(fake_stack, nullptr, nullptr);
  Fiber* const came_back = t.from;  // this fiber or one it handed over to; it suspended or finished
  COMMITLAB_CHECK(came_back != nullptr, "control comes home only from a fiber");
  t.returned = came_back;
  if (came_back->finished_) {
#if defined(COMMITLAB_TSAN_FIBERS)
    // The finished fiber's exit path ran charged to it (see Entry); only now are we home.
    __tsan_switch_to_fiber(t.home_tsan, 0);
    __tsan_destroy_fiber(came_back->tsan_fiber_);
    came_back->tsan_fiber_ = nullptr;
#endif
  } else {
    came_back->self_ = std::move(back);
  }
  t.home = std::move(outer_home);
  t.home_bottom = outer_bottom;
  t.home_size = outer_size;
  t.home_tsan = outer_tsan;
}

void Fiber::Suspend() {
  ThreadSwitch& t = t_switch;
  t.from = this;
  void* fake_stack = nullptr;
  StartSwitch(&fake_stack, t.home_bottom, t.home_size);
  COMMITLAB_TSAN_SWITCH_TO(t.home_tsan);
  boost::context::fiber from = std::move(t.home).resume();
  Arrived(fake_stack, std::move(from));
}

void Fiber::SwitchTo(Fiber& next) {
  COMMITLAB_CHECK(&next != this && !next.finished_, "a fiber hands over to another that has not finished");
  if (!next.started_) next.Create();
  t_switch.from = this;
  void* fake_stack = nullptr;
  StartSwitch(&fake_stack, StackBottom(next.stack_), next.stack_.size);
  COMMITLAB_TSAN_SWITCH_TO(next.tsan_fiber_);
  boost::context::fiber from = std::move(next.self_).resume();
  Arrived(fake_stack, std::move(from));
}

void Fiber::ReleaseBody() {
  COMMITLAB_CHECK(finished_, "only a finished fiber's body is released");
  body_ = nullptr;
}

boost::context::fiber Fiber::Entry(boost::context::fiber&& from) {
  Arrived(nullptr, std::move(from));  // a fresh stack has no fake stack to restore
  body_();
  finished_ = true;
  ThreadSwitch& t = t_switch;
  t.from = this;
  StartSwitch(nullptr, t.home_bottom, t.home_size);  // null: this stack is gone for good
  // No TSan switch here: the frames below us (std::invoke, Boost's record, then Boost's fiber_exit
  // on the home stack) return after the jump, and charged to the home context they would pop
  // frames it never pushed. Resume() switches once the jump has returned.
  // Returning the home continuation ends this fiber; Boost frees its stack on the home side.
  return std::move(t.home);
}

}  // namespace commitlab::sim
