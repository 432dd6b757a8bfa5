#include "commitlab/sim/checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/paimon/table_state.h"

namespace commitlab::sim {
namespace {

// A commit as Paimon's idempotency check knows it: (user, identifier, kind).
using CommitKey = std::tuple<std::string_view, int64_t, CommitKind>;

std::string Describe(std::string_view user, int64_t identifier, CommitKind kind) {
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

// The live files of a chain being replayed, by identity (partition, bucket, level, name), as
// views of the chain's own strings: the checker of a long run holds a few words per live file,
// where a TableState copies each file twice. Apply refuses what TableState::Apply refuses.
class LiveSet {
 public:
  bool IsLive(const DataFile& f) const { return files_.count(KeyOf(f)) > 0; }
  // REQUIRES: `f` outlives the set.
  void Add(const DataFile& f) { files_.insert(KeyOf(f)); }
  void Remove(const DataFile& f) { files_.erase(KeyOf(f)); }
  // All of `s`'s changes, or (when one deletes a file that is not live or adds one that is) none.
  bool Apply(const Snapshot& s) {
    // Net ADD(+1) / DELETE(-1) per identity within this snapshot; a snapshot changes a few files.
    std::vector<std::pair<Key, int>> pending;
    for (const FileChange& c : s.changes) {
      const Key key = KeyOf(c.file);
      auto it = std::find_if(pending.begin(), pending.end(), [&](const auto& p) { return p.first == key; });
      if (it == pending.end()) it = pending.insert(pending.end(), {key, 0});
      const int live = (files_.count(key) > 0 ? 1 : 0) + it->second;
      const bool add = c.kind == ChangeKind::kAdd;
      if (add ? live > 0 : live <= 0) return false;
      it->second += add ? 1 : -1;
    }
    for (const FileChange& c : s.changes) {
      if (c.kind == ChangeKind::kAdd) {
        Add(c.file);
      } else {
        Remove(c.file);
      }
    }
    return true;
  }

 private:
  struct Key {
    std::string_view partition;
    int32_t bucket;
    int32_t level;
    std::string_view name;
    bool operator==(const Key&) const = default;
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      const size_t h = std::hash<std::string_view>()(k.name);
      return h ^ (std::hash<std::string_view>()(k.partition) * 31 + static_cast<size_t>(k.bucket) * 131 +
                  static_cast<size_t>(k.level));
    }
  };
  static Key KeyOf(const DataFile& f) { return {f.partition, f.bucket, f.level, f.name}; }

  std::unordered_set<Key, Hash> files_;
};

// The checker's state of the table: TableState when the caller wants the live files back, else
// the lighter LiveSet.
bool ApplyTo(TableState& state, const Snapshot& s) { return state.Apply(s).ok(); }
bool ApplyTo(LiveSet& state, const Snapshot& s) { return state.Apply(s); }

// Called only when Apply refused `s`: reports each offending change and applies the rest, so one
// bad snapshot does not make every later one look bad too.
template <typename State>
void ReplayLeniently(const Snapshot& s, State& state, std::vector<Violation>& out) {
  using FileKey = std::tuple<std::string_view, int32_t, int32_t, std::string_view>;
  std::map<FileKey, int> pending;  // net ADD(+1) / DELETE(-1) within this snapshot, as Apply counts
  std::vector<const FileChange*> valid;
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
    valid.push_back(&c);
  }
  if constexpr (std::is_same_v<State, TableState>) {
    Snapshot applied = s;
    applied.changes.clear();
    for (const FileChange* c : valid) applied.changes.push_back(*c);
    (void)state.Apply(applied);  // cannot fail: every change left was checked above
  } else {
    for (const FileChange* c : valid) {  // the chain's own changes: the set views their strings
      if (c->kind == ChangeKind::kAdd) {
        state.Add(c->file);
      } else {
        state.Remove(c->file);
      }
    }
  }
}

template <typename Chain, typename State>
void CheckChain(const Chain& chain, std::vector<Violation>& out, State& state) {
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
    if (!ApplyTo(state, s)) ReplayLeniently(s, state, out);
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

// One thing known about a commit: a record of what its writer was told, or a snapshot holding it,
// in 16 bytes (a run of a million commits holds two a commit). Users are numbered in name order, so
// sorting by number sorts by name.
struct Fact {
  int64_t identifier = 0;
  uint32_t user_kind = 0;    // user << 2 | kind
  uint32_t chain_order = 0;  // in_chain << 31 | order (its index among the records, or in the chain)

  uint32_t user() const { return user_kind >> 2; }
  CommitKind kind() const { return static_cast<CommitKind>(user_kind & 3); }
  bool in_chain() const { return (chain_order >> 31) != 0; }
  size_t order() const { return chain_order & ~(uint32_t{1} << 31); }
  bool SameCommit(const Fact& o) const { return identifier == o.identifier && user_kind == o.user_kind; }
};
static_assert(static_cast<int>(CommitKind::kOverwrite) < 4, "a fact keeps the kind in two bits");

// The facts of every record and snapshot, users numbered in name order (`users` gets the names).
template <typename Chain>
std::vector<Fact> Facts(const Chain& chain, const std::vector<CommitRecord>& records,
                        std::vector<std::string_view>* users) {
  COMMITLAB_CHECK(records.size() < (size_t{1} << 31) && chain.size() < (size_t{1} << 31),
                  "a fact numbers its record or snapshot in 31 bits");
  std::unordered_map<std::string_view, uint32_t> seen;  // a user's number in the order first seen
  std::vector<Fact> facts;
  facts.reserve(records.size() + chain.size());
  auto add = [&](std::string_view user, int64_t identifier, CommitKind kind, bool in_chain, size_t i) {
    const auto [it, inserted] = seen.try_emplace(user, static_cast<uint32_t>(users->size()));
    if (inserted) users->push_back(user);
    facts.push_back({identifier, it->second << 2 | static_cast<uint32_t>(kind),
                     static_cast<uint32_t>(in_chain) << 31 | static_cast<uint32_t>(i)});
  };
  for (size_t i = 0; i < records.size(); ++i) add(records[i].user, records[i].identifier, records[i].kind, false, i);
  for (size_t i = 0; i < chain.size(); ++i)
    add(chain[i].commit_user, chain[i].commit_identifier, chain[i].kind, true, i);
  COMMITLAB_CHECK(users->size() < (size_t{1} << 30), "a fact numbers its user in 30 bits");
  // Renumber in name order.
  std::vector<uint32_t> by_name(users->size());
  std::iota(by_name.begin(), by_name.end(), 0);
  std::sort(by_name.begin(), by_name.end(), [&](uint32_t a, uint32_t b) { return (*users)[a] < (*users)[b]; });
  std::vector<uint32_t> rank(users->size());
  for (uint32_t r = 0; r < by_name.size(); ++r) rank[by_name[r]] = r;
  std::vector<std::string_view> sorted(users->size());
  for (uint32_t u = 0; u < rank.size(); ++u) sorted[rank[u]] = (*users)[u];
  *users = std::move(sorted);
  for (Fact& f : facts) f.user_kind = rank[f.user()] << 2 | (f.user_kind & 3);
  return facts;
}

// Judges every recorded commit against the chain, in (user, identifier, kind) order. The facts are
// sorted rather than gathered in a map: a run of a million commits holds one small entry for each.
template <typename Chain>
void CheckCommits(const Chain& chain, const std::vector<CommitRecord>& records, std::vector<Violation>& out) {
  std::vector<std::string_view> users;
  std::vector<Fact> facts = Facts(chain, records, &users);
  std::sort(facts.begin(), facts.end(), [](const Fact& a, const Fact& b) {
    return std::tuple(a.user(), a.identifier, a.user_kind, a.chain_order) <
           std::tuple(b.user(), b.identifier, b.user_kind, b.chain_order);
  });
  for (size_t at = 0; at < facts.size();) {
    size_t end = at;
    CommitFacts f;
    bool recorded = false;
    for (; end < facts.size() && facts[end].SameCommit(facts[at]); ++end) {
      const Fact& x = facts[end];
      if (x.in_chain()) {
        f.in_chain.push_back(chain[x.order()].id);
        continue;
      }
      recorded = true;
      const CommitRecord& r = records[x.order()];
      if (r.outcome == CommitOutcome::kAcknowledged) {
        f.acknowledged = true;
        f.told.push_back(r.snapshot_id);
      }
      f.unknown |= r.outcome == CommitOutcome::kUnknown;
    }
    // Snapshots of commits nobody recorded (a writer outside the harness) are not judged here.
    const Fact& c = facts[at];
    if (recorded) CheckCommit({users[c.user()], c.identifier, c.kind()}, f, out);
    at = end;
  }
}

template <typename Chain>
std::vector<Violation> Check(const Chain& chain, const std::vector<CommitRecord>& records, TableState* live) {
  std::vector<Violation> out;
  if (live != nullptr) {
    TableState state;
    CheckChain(chain, out, state);
    *live = std::move(state);
  } else {
    LiveSet state;
    CheckChain(chain, out, state);
  }
  CheckCommits(chain, records, out);
  return out;
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
  return Check(chain, records, live);
}

std::vector<Violation> CheckSharedChain(const SnapshotChain& chain, const std::vector<CommitRecord>& records,
                                        TableState* live) {
  return Check(chain, records, live);
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
  AppendOpen(&out);
  return out;
}

std::vector<CommitRecord> OutcomeRecorder::TakeRecords() {
  MutexLock lock(&mu_);
  std::vector<CommitRecord> out = std::move(closed_);
  closed_.clear();
  AppendOpen(&out);
  open_.clear();
  return out;
}

void OutcomeRecorder::AppendOpen(std::vector<CommitRecord>* out) const {
  std::vector<std::pair<size_t, CommitRecord>> still_open;
  for (const auto& [key, open] : open_) {
    const bool unknown = open.maybe_published || open.in_attempt;
    still_open.push_back({open.order,
                          {std::get<0>(key), std::get<1>(key), std::get<2>(key),
                           unknown ? CommitOutcome::kUnknown : CommitOutcome::kFailed, 0}});
  }
  std::sort(still_open.begin(), still_open.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, record] : still_open) out->push_back(std::move(record));
}

}  // namespace commitlab::sim
