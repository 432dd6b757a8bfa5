#include "commitlab/core/events.h"

namespace commitlab {

std::string_view EventTypeName(EventType t) {
  switch (t) {
    case EventType::kAttempt: return "attempt";
    case EventType::kPublished: return "published";
    case EventType::kAtomicCommitFailed: return "atomic_commit_failed";
    case EventType::kUnknownOutcome: return "unknown_outcome";
    case EventType::kIdempotentMatch: return "idempotent_match";
    case EventType::kConflict: return "conflict";
    case EventType::kRetryWait: return "retry_wait";
    case EventType::kGaveUp: return "gave_up";
    case EventType::kCrashed: return "crashed";
    case EventType::kFiltered: return "filtered";
    case EventType::kError: return "error";
  }
  return "?";
}

std::string_view LevelName(Level l) {
  switch (l) {
    case Level::kInfo: return "INFO";
    case Level::kWarn: return "WARN";
    case Level::kError: return "ERROR";
  }
  return "?";
}

std::string_view CauseKindName(CauseKind k) {
  switch (k) {
    case CauseKind::kFileDeletion: return "file-deletion";
    case CauseKind::kLsm: return "lsm";
    case CauseKind::kValidation: return "validation";
    case CauseKind::kDeltaConflict: return "delta-conflict";
    case CauseKind::kBucketCount: return "bucket-count";
  }
  return "?";
}

}  // namespace commitlab
