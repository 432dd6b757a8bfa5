#include "commitlab/sim/checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "commitlab/core/paimon/table_state.h"

namespace commitlab::sim {
namespace {

using CommitKey = std::tuple<std::string, int64_t, CommitKind>;

std::string Describe(const std::string& user, int64_t identifier, CommitKind kind) {
  return fmt::format("{} identifier {} kind {}", user, identifier, CommitKindName(kind));
}

std::string DescribeSnapshot(const Snapshot& s) {
  return fmt::format("snapshot {} ({})", s.id, Describe(s.commit_user, s.commit_identifier, s.kind));
}

std::string IdList(const std::vector<int64_t>& ids) {
  std::string out = ids.size() == 1 ? "snapshot " : "snapshots ";
  for (size_t i = 0; i < ids.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", ids[i]);
  return out;
}

// Called only when TableState::Apply refused `s`: reports each offending change and applies the
// rest, so one bad snapshot does not make every later one look bad too.
void ReplayLeniently(const Snapshot& s, TableState& state, std::vector<Violation>& out) {
  using FileKey = std::tuple<std::string_view, int32_t, int32_t, std::string_view>;
  std::map<FileKey, int> pending;  // net ADD(+1) / DELETE(-1) within this snapshot, as Apply counts
  Snapshot valid = s;
  valid.changes.clear();
  for (const FileChange& c : s.changes) {
    const DataFile& f = c.file;
    int& net = pending[FileKey(f.partition, f.bucket, f.level, f.name)];
    const int live = (state.IsLive(f) ? 1 : 0) + net;
    const bool add = c.kind == ChangeKind::kAdd;
    if (add ? live > 0 : live <= 0) {
      out.push_back({add ? "add_live" : "delete_not_live",
                     fmt::format("{} {} file {} (partition \"{}\", bucket {}, level {}) which is {}",
                                 DescribeSnapshot(s), add ? "adds" : "deletes", f.name, f.partition, f.bucket, f.level,
                                 add ? "already live" : "not live"),
                     s.id});
      continue;
    }
    net += add ? 1 : -1;
    valid.changes.push_back(c);
  }
  (void)state.Apply(valid);  // cannot fail: every change left was checked above
}

void CheckChain(const std::vector<Snapshot>& chain, std::vector<Violation>& out, TableState& state) {
  int64_t prev_id = 0;
  for (size_t i = 0; i < chain.size(); ++i) {
    const Snapshot& s = chain[i];
    int64_t expected_parent = prev_id;
    if (i > 0 && s.id == prev_id) {
      out.push_back(
          {"duplicate_id", fmt::format("{} has the same id as the snapshot before it", DescribeSnapshot(s)), s.id});
    } else if (s.id != prev_id + 1) {
      out.push_back(
          {"gap",
           i == 0 ? fmt::format("snapshot ids do not start at 1: the first is snapshot {}", s.id)
                  : fmt::format("snapshot ids are not contiguous: snapshot {} follows snapshot {}", s.id, prev_id),
           s.id});
      expected_parent = s.id - 1;  // a snapshot is missing: judge the parent against the id alone
    }
    if (s.parent_id != expected_parent)
      out.push_back({"fork",
                     fmt::format("{} has parent {}, expected {}", DescribeSnapshot(s), s.parent_id, expected_parent),
                     s.id});
    if (!state.Apply(s).ok()) ReplayLeniently(s, state, out);
    prev_id = s.id;
  }
}

// Everything the writers were told about one commit, and where it is in the chain.
struct CommitFacts {
  bool acknowledged = false;
  bool unknown = false;
  std::vector<int64_t> told;      // acknowledged records' snapshot ids (0: not told)
  std::vector<int64_t> in_chain;  // ids of the snapshots holding it
};

void CheckCommit(const CommitKey& key, const CommitFacts& f, std::vector<Violation>& out) {
  const size_t n = f.in_chain.size();
  // The commit's description, only when it is wrong: most commits are fine, and formatting each
  // one cost the explorer a tenth of its run.
  auto told_right = [&f] {
    return std::all_of(f.told.begin(), f.told.end(), [&f](int64_t t) { return t == 0 || t == f.in_chain.front(); });
  };
  const bool fine = f.acknowledged ? n == 1 && told_right() : f.unknown ? n <= 1 : n == 0;
  if (fine) return;
  const std::string what = Describe(std::get<0>(key), std::get<1>(key), std::get<2>(key));
  if (f.acknowledged) {
    if (n == 0) {
      const int64_t told = f.told.empty() ? 0 : f.told.front();
      out.push_back({"lost", fmt::format("acknowledged commit of {}{} is not in the table", what,
                                         told ? fmt::format(" (told snapshot {})", told) : "")});
    } else if (n > 1) {
      out.push_back(
          {"duplicate", fmt::format("acknowledged commit of {} appears {} times: {}", what, n, IdList(f.in_chain))});
    } else {
      for (int64_t told : f.told)
        if (told != 0 && told != f.in_chain.front())
          out.push_back({"misplaced", fmt::format("acknowledged commit of {} was told snapshot {} but is in {}", what,
                                                  told, IdList(f.in_chain))});
    }
  } else if (f.unknown) {
    if (n > 1)
      out.push_back({"duplicate", fmt::format("commit of {} with unknown outcome appears {} times: {}", what, n,
                                              IdList(f.in_chain))});
  } else if (n > 0) {
    out.push_back({"failed_visible", fmt::format("failed commit of {} appears in {}", what, IdList(f.in_chain))});
  }
}

}  // namespace

std::string_view CommitOutcomeName(CommitOutcome o) {
  switch (o) {
    case CommitOutcome::kAcknowledged: return "acknowledged";
    case CommitOutcome::kFailed: return "failed";
    case CommitOutcome::kUnknown: return "unknown";
  }
  return "?";
}

std::vector<Violation> CheckInvariants(const std::vector<Snapshot>& chain, const std::vector<CommitRecord>& records,
                                       TableState* live) {
  std::vector<Violation> out;
  TableState state;
  CheckChain(chain, out, state);
  if (live != nullptr) *live = std::move(state);

  std::map<CommitKey, CommitFacts> commits;
  for (const CommitRecord& r : records) {
    CommitFacts& f = commits[CommitKey(r.user, r.identifier, r.kind)];
    if (r.outcome == CommitOutcome::kAcknowledged) {
      f.acknowledged = true;
      f.told.push_back(r.snapshot_id);
    }
    f.unknown |= r.outcome == CommitOutcome::kUnknown;
  }
  // Snapshots of commits nobody recorded (a writer outside the harness) are not judged here.
  for (const Snapshot& s : chain) {
    auto it = commits.find(CommitKey(s.commit_user, s.commit_identifier, s.kind));
    if (it != commits.end()) it->second.in_chain.push_back(s.id);
  }
  for (const auto& [key, facts] : commits) CheckCommit(key, facts, out);
  return out;
}

void OutcomeRecorder::OnEvent(const Event& e) {
  if (e.type == EventType::kFiltered) return;  // names the newest committed identifier, not a commit
  MutexLock lock(&mu_);
  Key key(std::string(e.user), e.identifier, e.kind);
  const auto [it, inserted] = open_.try_emplace(key);
  if (inserted) it->second.order = next_order_++;
  Open& open = it->second;
  std::optional<CommitOutcome> closed;  // set: the commit ended, with this outcome
  int64_t snapshot_id = 0;
  switch (e.type) {
    case EventType::kAttempt: open.in_attempt = true; break;
    case EventType::kAtomicCommitFailed:  // lost the race: this attempt published nothing
      open.in_attempt = false;
      break;
    case EventType::kUnknownOutcome:
      open.in_attempt = false;
      open.maybe_published = true;
      break;
    case EventType::kRetryWait:
    case EventType::kFiltered: break;
    case EventType::kPublished:
    case EventType::kIdempotentMatch:
      closed = CommitOutcome::kAcknowledged;
      snapshot_id = e.snapshot_id;
      break;
    case EventType::kConflict:
    case EventType::kError:
    case EventType::kGaveUp: closed = open.maybe_published ? CommitOutcome::kUnknown : CommitOutcome::kFailed; break;
    case EventType::kCrashed:  // the event does not say whether it stopped before or after publish
      closed = open.maybe_published || open.in_attempt ? CommitOutcome::kUnknown : CommitOutcome::kFailed;
      break;
  }
  if (closed) {
    closed_.push_back({std::move(std::get<0>(key)), e.identifier, e.kind, *closed, snapshot_id});
    open_.erase(it);
  }
}

std::vector<CommitRecord> OutcomeRecorder::records() const {
  MutexLock lock(&mu_);
  std::vector<CommitRecord> out = closed_;
  std::vector<std::pair<size_t, CommitRecord>> still_open;
  for (const auto& [key, open] : open_) {
    const bool unknown = open.maybe_published || open.in_attempt;
    still_open.push_back({open.order,
                          {std::get<0>(key), std::get<1>(key), std::get<2>(key),
                           unknown ? CommitOutcome::kUnknown : CommitOutcome::kFailed, 0}});
  }
  std::sort(still_open.begin(), still_open.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, record] : still_open) out.push_back(std::move(record));
  return out;
}

}  // namespace commitlab::sim
