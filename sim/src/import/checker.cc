#include "checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

namespace commitlab::sim::import::internal {
namespace {

// How far back a concurrent commit is named; older ones are counted.
constexpr size_t kRecent = 256;
// Files named in one finding's message; the rest are counted.
constexpr size_t kNamed = 5;

uint64_t Fnv1a(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::string Described(int64_t version, const std::string& operation, const std::string& writer, bool blind) {
  return fmt::format("{} ({} by {}{})", version, operation.empty() ? "no operation" : operation, writer,
                     blind ? ", a blind append" : "");
}

std::string NamedFiles(const std::vector<std::string>& files) {
  std::string out;
  for (size_t i = 0; i < files.size() && i < kNamed; ++i) out += (i == 0 ? "" : ", ") + files[i];
  if (files.size() > kNamed) out += fmt::format(" and {} more", files.size() - kNamed);
  return out;
}

}  // namespace

Status Checker::Begin(const ImportSource& source) {
  format_ = source.format;
  return out_->Begin(source);
}

Status Checker::Commit(ImportedCommit c) {
  std::vector<Finding> found;
  COMMITLAB_RETURN_IF_ERROR(Clock(c, &found));
  if (format_ == Format::kDelta) {
    Concurrent(c, &found);
    AppVersions(c, &found);
    Files(c, &found);
  }
  if (format_ == Format::kPaimon) Identifiers(c, &found);
  recent_.push_back({c.version, c.operation, c.writer, c.blind_append.value_or(false)});
  if (recent_.size() > kRecent) recent_.pop_front();
  any_ = true;
  last_version_ = c.version;
  COMMITLAB_RETURN_IF_ERROR(out_->Commit(std::move(c)));
  for (const Finding& f : found) COMMITLAB_RETURN_IF_ERROR(out_->Found(f));
  return Status::OK();
}

// Commit times come from each writer's clock. A timeline needs them in order, so a time at or
// before the previous commit's is moved to 1 ms after it, as Delta's
// DeltaHistoryManager.monotonizeCommitTimestamps does with commit file times; the log's own time
// stays in the commit's details, and the finding says so.
Status Checker::Clock(ImportedCommit& c, std::vector<Finding>* found) {
  if (any_ && c.time_ms <= last_time_ms_) {
    if (c.time_ms < last_time_ms_) {
      found->push_back({.kind = "time_backwards",
                        .problem = false,
                        .version = c.version,
                        .commits = {last_version_, c.version},
                        .writer = c.writer,
                        .message = fmt::format("commit {} says it committed at {} ms, {} ms before commit {}: the "
                                               "writers' clocks disagree; the timeline draws it 1 ms after",
                                               c.version, c.time_ms, last_time_ms_ - c.time_ms, last_version_)});
    }
    c.time_ms = last_time_ms_ + 1;
  }
  last_time_ms_ = c.time_ms;
  return Status::OK();
}

// Delta: a commit whose readVersion is older than the version before it began before the commits
// in between landed, and Delta's conflict checker let it through
// (OptimisticTransaction.checkForConflicts against each winning commit).
void Checker::Concurrent(const ImportedCommit& c, std::vector<Finding>* found) const {
  if (!c.read_version || *c.read_version >= c.version - 1) return;
  Finding f{.kind = "concurrent_commit", .problem = false, .version = c.version, .writer = c.writer};
  std::string between;
  int64_t unnamed = 0;
  for (int64_t v = *c.read_version + 1; v < c.version; ++v) {
    f.commits.push_back(v);
    auto it = std::find_if(recent_.begin(), recent_.end(), [v](const Recent& r) { return r.version == v; });
    if (it == recent_.end()) {
      ++unnamed;
      continue;
    }
    between += (between.empty() ? "" : ", ") + Described(v, it->operation, it->writer, it->blind_append);
  }
  if (unnamed > 0) between += fmt::format("{}{} more not read or too far back", between.empty() ? "" : ", ", unnamed);
  f.commits.push_back(c.version);
  const bool blind = c.blind_append.value_or(false);
  f.message = fmt::format(
      "version {} read version {} and committed after {} concurrent commit(s): {}. {}",
      Described(c.version, c.operation, c.writer, blind), *c.read_version, c.version - 1 - *c.read_version, between,
      blind ? "A blind append reads nothing, so Delta's conflict checker lets it past any commit"
            : fmt::format("It is not a blind append: Delta's conflict checker compared what it read with what those "
                          "commits added and removed{}, and found no conflict",
                          c.isolation.empty() ? "" : fmt::format(" under {}", c.isolation)));
  found->push_back(std::move(f));
}

// Delta's txn action: a streaming query (appId) records the batch (version) it committed, so that
// a restarted query skips what is done (SetTransaction). The same app id with a version that does
// not grow wrote a batch again, or went back to an older one.
void Checker::AppVersions(const ImportedCommit& c, std::vector<Finding>* found) {
  for (const auto& [app, version] : c.txns) {
    auto [it, fresh] = apps_.try_emplace(app, AppSeen{version, c.version});
    if (fresh) continue;
    if (version <= it->second.version) {
      found->push_back(
          {.kind = "app_version",
           .problem = true,
           .version = c.version,
           .commits = {it->second.at, c.version},
           .writer = c.writer,
           .message = fmt::format("app id {} committed version {} at log version {}, after version {} at log version "
                                  "{}: {}",
                                  app, version, c.version, it->second.version, it->second.at,
                                  version == it->second.version
                                      ? "the same batch twice (a restarted query that did not see its own commit)"
                                      : "the app's version went backwards (a query restarted from an older "
                                        "checkpoint)")});
    }
    it->second = {std::max(version, it->second.version), c.version};
  }
}

// Paimon: snapshots with the same commit user and identifier must make the same table, and a
// smaller identifier was committed earlier (Snapshot.commitIdentifier). FileStoreCommitImpl's
// filterCommitted drops a committable whose identifier is not above the user's latest, so a second
// snapshot of one (user, identifier, kind) is a duplicate that check skipped, typically after an
// unknown outcome with the idempotency check off.
void Checker::Identifiers(const ImportedCommit& c, std::vector<Finding>* found) {
  auto [it, fresh] = users_.try_emplace({c.user, c.kind}, UserSeen{c.identifier, c.version});
  if (fresh) return;
  const UserSeen before = it->second;
  it->second = {std::max(before.identifier, c.identifier), c.version};
  if (c.identifier > before.identifier) return;
  const bool batch = c.identifier == std::numeric_limits<int64_t>::max();
  found->push_back(
      {.kind = "duplicate_commit",
       .problem = !batch,
       .version = c.version,
       .commits = {before.at, c.version},
       .writer = c.writer,
       .message =
           batch ? fmt::format("snapshots {} and {}: user {} committed two {} snapshots with identifier "
                               "Long.MAX_VALUE, a batch commit's (BatchWriteBuilder.COMMIT_IDENTIFIER), which "
                               "Paimon does not deduplicate",
                               before.at, c.version, c.user, c.kind)
                 : fmt::format("snapshot {} ({} by user {}, identifier {}) repeats snapshot {} (identifier {}): "
                               "{}; FileStoreCommitImpl.filterCommitted would have dropped it, so it was committed "
                               "without that check (a retry after an unknown outcome with the idempotency check off)",
                               c.version, c.kind, c.user, c.identifier, before.at, before.identifier,
                               c.identifier == before.identifier ? "the same user and identifier committed twice"
                                                                 : "an identifier below one already committed")});
}

uint32_t Checker::PartitionId(const std::string& partition) {
  auto [it, fresh] = partition_ids_.try_emplace(partition, static_cast<uint32_t>(partitions_.size()));
  if (fresh) partitions_.push_back(partition);
  return it->second;
}

// Delta: each remove names a file an earlier add made live (PROTOCOL.md, "Add File and Remove
// File"); within a commit the removes apply before the adds (a deletion vector's remove and re-add
// of one path).
void Checker::Files(ImportedCommit& c, std::vector<Finding>* found) {
  std::vector<std::string> never;
  for (FileAction& r : c.removes) {
    auto it = live_.find(Fnv1a(r.path));
    r.was_live = it != live_.end();
    if (r.was_live) {
      if (r.partition.empty()) r.partition = partitions_[it->second];
      live_.erase(it);
    } else if (complete_) {
      never.push_back(r.path);
    } else {
      if (unknown_removes_++ == 0) {
        first_unknown_at_ = c.version;
        first_unknown_writer_ = c.writer;
      }
    }
  }
  for (const FileAction& a : c.adds) live_[Fnv1a(a.path)] = PartitionId(a.partition);
  if (never.empty()) return;
  found->push_back({.kind = "remove_never_added",
                    .problem = true,
                    .version = c.version,
                    .commits = {c.version},
                    .writer = c.writer,
                    .message = fmt::format("version {} removes {} file(s) no earlier version added: {}", c.version,
                                           never.size(), NamedFiles(never))});
}

Status Checker::End(const TableFacts& facts) {
  if (unknown_removes_ > 0) {
    COMMITLAB_RETURN_IF_ERROR(out_->Found(
        {.kind = "remove_never_added",
         .problem = false,
         .version = first_unknown_at_,
         .commits = {first_unknown_at_},
         .writer = first_unknown_writer_,
         .message = fmt::format("{} remove(s), the first at version {}, name files added before the first version "
                                "read: not checked (the versions before it are only in a checkpoint)",
                                unknown_removes_, first_unknown_at_)}));
  }
  return out_->End(facts);
}

}  // namespace commitlab::sim::import::internal
