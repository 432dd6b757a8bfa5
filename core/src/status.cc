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
    case Code::kLostRace: return "LostRace";
    case Code::kCrashed: return "Crashed";
  }
  return "?";
}

const std::string& Status::EmptyMessage() {
  static const std::string* const empty = new std::string();  // never destroyed: usable at exit
  return *empty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s(CodeName(state_->code));
  s += ": ";
  s += state_->message;
  return s;
}

}  // namespace commitlab
