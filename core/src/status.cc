#include "commitlab/core/status.h"

namespace commitlab {

std::string_view CodeName(Code c) {
  switch (c) {
    case Code::kOk: return "OK";
    case Code::kInvalidArgument: return "InvalidArgument";
    case Code::kNotFound: return "NotFound";
    case Code::kCorruption: return "Corruption";
    case Code::kIOError: return "IOError";
    case Code::kConflict: return "Conflict";
    case Code::kRetriesExhausted: return "RetriesExhausted";
    case Code::kCrashed: return "Crashed";
  }
  return "?";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s(CodeName(code_));
  s += ": ";
  s += message_;
  return s;
}

}  // namespace commitlab
