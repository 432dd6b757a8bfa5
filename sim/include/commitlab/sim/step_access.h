// What a writer's next step may touch, as far as the explorer (scenarios/explore.h) needs to know
// whether two steps of different writers commute: run in either order, they leave the same state.
//
// A step is what a writer does between two scheduling points. SimEnv declares the kind of the next
// step just before it yields: after BeginStorageOp(op) the step is that storage operation, after
// EndStorageOp or at the start it is the writer's own computation, after a fault point it is the
// fault plan's decision for that writer, after a sleep it is whatever follows a wait (a retry, or
// an object store's lock acquisition). A scripted line that works on the whole table outside the
// engine's storage brackets (orphan removal, expiry, deleting data files) marks its steps opaque.
//
// The relation is deliberately coarse: it knows kinds, not tables or keys, so every publish
// conflicts with every read and publish. Coarse is sound (it only explores more orders); the
// tests check it against the unreduced search.
#ifndef COMMITLAB_SIM_STEP_ACCESS_H_
#define COMMITLAB_SIM_STEP_ACCESS_H_

#include <cstdint>
#include <string_view>

namespace commitlab::sim {

enum class StepAccess : uint8_t {
  kLocal,      // the writer's own computation: no shared state
  kFault,      // the fault plan's per-writer decision, then the writer's own computation
  kWait,       // after a sleep: a retry's next move, or a spin on an object store's lock flag
  kWriteFile,  // writes a new data file or manifest under a fresh name
  kCheckFile,  // asks whether a data file exists
  kRead,       // reads the table's latest pointer or a committed snapshot
  kPublish,    // the atomic step (rename, compare-and-swap, put-if-absent) or a store's check
  kNoteRead,   // reads what the run notes beside the tables (which Iceberg counters exist)
  kNoteWrite,  // writes it (a counter's init)
  kOpaque,     // anything: commutes with nothing
};

std::string_view StepAccessName(StepAccess a);  // "local", "fault", ..., "opaque"

// True when a step of kind `a` and a step of kind `b`, by different writers, commute.
constexpr bool Commute(StepAccess a, StepAccess b) {
  if (a == StepAccess::kOpaque || b == StepAccess::kOpaque) return false;
  auto either = [&](StepAccess x, StepAccess y) { return (a == x && b == y) || (a == y && b == x); };
  if (either(StepAccess::kPublish, StepAccess::kPublish) || either(StepAccess::kPublish, StepAccess::kRead))
    return false;
  if (either(StepAccess::kNoteWrite, StepAccess::kNoteWrite) || either(StepAccess::kNoteWrite, StepAccess::kNoteRead))
    return false;
  // Names are fresh, but a scenario may name a data file itself: a check races with its write.
  if (either(StepAccess::kCheckFile, StepAccess::kWriteFile)) return false;
  // A lock spin (kWait) races with another spin and with the holder's release inside its publish.
  if (either(StepAccess::kWait, StepAccess::kWait) || either(StepAccess::kWait, StepAccess::kPublish)) return false;
  return true;
}

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_STEP_ACCESS_H_
