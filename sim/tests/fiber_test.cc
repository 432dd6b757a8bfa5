#include "commitlab/sim/fiber.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace commitlab::sim {
namespace {

TEST(FiberTest, ResumeRunsUntilSuspendThenContinuesThere) {
  std::vector<std::string> log;
  Fiber* self = nullptr;
  Fiber f([&] {
    log.push_back("a");
    self->Suspend();
    log.push_back("b");
  });
  self = &f;
  EXPECT_FALSE(f.started());
  f.Resume();
  EXPECT_EQ(log, (std::vector<std::string>{"a"}));
  EXPECT_EQ(Fiber::last_returned(), &f);
  EXPECT_FALSE(f.finished());
  f.Resume();
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(f.finished());
  EXPECT_EQ(Fiber::last_returned(), &f);
}

// Fibers hand over to each other without coming back to the resumer; Resume returns when one of
// them suspends or finishes, and last_returned() says which.
TEST(FiberTest, SwitchToHandsOverDirectly) {
  std::vector<std::string> log;
  Fiber* a = nullptr;
  Fiber* b = nullptr;
  Fiber fa([&] {
    log.push_back("a1");
    a->SwitchTo(*b);  // starts b
    log.push_back("a2");
    a->SwitchTo(*b);  // b continues after its own SwitchTo
    log.push_back("a3");
  });
  Fiber fb([&] {
    log.push_back("b1");
    b->SwitchTo(*a);
    log.push_back("b2");
    b->Suspend();  // back to the resumer, though it resumed a
    log.push_back("b3");
  });
  a = &fa;
  b = &fb;

  fa.Resume();
  EXPECT_EQ(log, (std::vector<std::string>{"a1", "b1", "a2", "b2"}));
  EXPECT_EQ(Fiber::last_returned(), &fb);
  EXPECT_FALSE(fa.finished());
  EXPECT_FALSE(fb.finished());

  fb.Resume();  // b finishes; a still waits inside its second SwitchTo
  EXPECT_EQ(log.back(), "b3");
  EXPECT_TRUE(fb.finished());
  EXPECT_EQ(Fiber::last_returned(), &fb);

  fa.Resume();
  EXPECT_EQ(log.back(), "a3");
  EXPECT_TRUE(fa.finished());
}

// A fiber that finishes after being switched to hands control back to whoever called Resume,
// even though that call resumed another fiber.
TEST(FiberTest, AFiberFinishingAfterAHandOverReturnsToTheResumer) {
  std::vector<std::string> log;
  Fiber* a = nullptr;
  Fiber fb([&] { log.push_back("b"); });
  Fiber fa([&] {
    log.push_back("a1");
    a->SwitchTo(fb);
    log.push_back("a2");
  });
  a = &fa;
  fa.Resume();
  EXPECT_EQ(log, (std::vector<std::string>{"a1", "b"}));
  EXPECT_EQ(Fiber::last_returned(), &fb);
  EXPECT_TRUE(fb.finished());
  fa.Resume();
  EXPECT_EQ(log.back(), "a2");
  EXPECT_TRUE(fa.finished());
}

// A run within a run: a fiber resumes fibers of its own; the inner run ends, then the outer
// fiber goes on and can still suspend to its own resumer.
TEST(FiberTest, ResumeFromInsideAFiberKeepsTheOuterRun) {
  std::vector<std::string> log;
  Fiber* outer = nullptr;
  Fiber* inner = nullptr;
  Fiber fi([&] {
    log.push_back("inner1");
    inner->Suspend();  // back to the outer fiber, not to the test
    log.push_back("inner2");
  });
  Fiber fo([&] {
    log.push_back("outer1");
    fi.Resume();
    EXPECT_EQ(Fiber::last_returned(), &fi);
    log.push_back("outer2");
    fi.Resume();
    EXPECT_TRUE(fi.finished());
    outer->Suspend();  // to the test
    log.push_back("outer3");
  });
  outer = &fo;
  inner = &fi;
  fo.Resume();
  EXPECT_EQ(log, (std::vector<std::string>{"outer1", "inner1", "outer2", "inner2"}));
  EXPECT_EQ(Fiber::last_returned(), &fo);
  fo.Resume();
  EXPECT_EQ(log.back(), "outer3");
  EXPECT_TRUE(fo.finished());
}

// A fiber that suspended to the resumer is later switched to by another fiber, not resumed: it
// goes on from its Suspend, and when it finishes control goes back to the resumer.
TEST(FiberTest, AFiberSuspendedToTheResumerCanBeSwitchedTo) {
  std::vector<std::string> log;
  Fiber* a = nullptr;
  Fiber* b = nullptr;
  Fiber fa([&] {
    log.push_back("a1");
    a->Suspend();
    log.push_back("a2");
  });
  Fiber fb([&] {
    log.push_back("b1");
    b->SwitchTo(*a);
    log.push_back("b2");
  });
  a = &fa;
  b = &fb;
  fa.Resume();
  fb.Resume();  // b hands over to a, which finishes
  EXPECT_EQ(log, (std::vector<std::string>{"a1", "b1", "a2"}));
  EXPECT_EQ(Fiber::last_returned(), &fa);
  EXPECT_TRUE(fa.finished());
  fb.Resume();
  EXPECT_EQ(log.back(), "b2");
  EXPECT_TRUE(fb.finished());
}

// Hand-overs inside a run within a run: the inner fibers switch to each other (one created from
// inside a fiber) and the last to finish goes back to the outer fiber, not to the test.
TEST(FiberTest, HandOversInsideANestedRunReturnToTheOuterFiber) {
  std::vector<std::string> log;
  Fiber* outer = nullptr;
  Fiber* a = nullptr;
  Fiber fb([&] { log.push_back("b"); });
  Fiber fa([&] {
    log.push_back("a1");
    a->SwitchTo(fb);  // fb starts from inside a fiber
    log.push_back("a2");
  });
  Fiber fo([&] {
    fa.Resume();
    EXPECT_EQ(Fiber::last_returned(), &fb);
    log.push_back("outer");
    outer->Suspend();
    fa.Resume();
    EXPECT_EQ(Fiber::last_returned(), &fa);
  });
  outer = &fo;
  a = &fa;
  fo.Resume();
  EXPECT_EQ(log, (std::vector<std::string>{"a1", "b", "outer"}));
  EXPECT_EQ(Fiber::last_returned(), &fo);
  fo.Resume();
  EXPECT_EQ(log.back(), "a2");
  EXPECT_TRUE(fa.finished());
  EXPECT_TRUE(fo.finished());
  EXPECT_EQ(Fiber::last_returned(), &fo);
}

// Destroying a suspended fiber would unwind its stack with an exception through the engine: the
// scheduler never does, and a check says so if anyone does.
TEST(FiberDeathTest, ASuspendedFiberIsNotDestroyed) {
  EXPECT_DEATH(
      {
        Fiber* self = nullptr;
        auto f = std::make_unique<Fiber>([&] { self->Suspend(); });
        self = f.get();
        f->Resume();
        f.reset();
      },
      "a suspended fiber would have its stack unwound");
}

TEST(FiberDeathTest, AFinishedFiberIsNotResumed) {
  Fiber f([] {});
  f.Resume();
  ASSERT_TRUE(f.finished());
  EXPECT_DEATH(f.Resume(), "a finished fiber is not resumed");
}

}  // namespace
}  // namespace commitlab::sim
