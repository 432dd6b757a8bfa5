#include "commitlab/sim/step_access.h"

namespace commitlab::sim {

std::string_view StepAccessName(StepAccess a) {
  switch (a) {
    case StepAccess::kLocal: return "local";
    case StepAccess::kFault: return "fault";
    case StepAccess::kWait: return "wait";
    case StepAccess::kWriteFile: return "write-file";
    case StepAccess::kCheckFile: return "check-file";
    case StepAccess::kRead: return "read";
    case StepAccess::kPublish: return "publish";
    case StepAccess::kNoteRead: return "note-read";
    case StepAccess::kNoteWrite: return "note-write";
    case StepAccess::kOpaque: return "opaque";
  }
  return "?";
}

}  // namespace commitlab::sim
