#include "commitlab/sim/table_dir_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <memory>
#include <set>
#include <system_error>
#include <tuple>
#include <utility>

#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/core/paimon/table_state.h"
#include "commitlab/sim/checker.h"

namespace commitlab::sim {
namespace {

namespace fs = std::filesystem;

// A temp file of DirStore's: ".<target>.<pid>-<n>.tmp".
bool IsTempName(const std::string& name) { return name.size() > 5 && name.front() == '.' && name.ends_with(".tmp"); }

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

int64_t WallMicros() {
  struct timespec ts;
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1'000'000 + ts.tv_nsec / 1'000;
}

// A file's last modification, since the epoch; `fallback` when it cannot be read (gone already).
int64_t MtimeMicros(const std::string& path, int64_t fallback) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return fallback;
  return int64_t{st.st_mtim.tv_sec} * 1'000'000 + st.st_mtim.tv_nsec / 1'000;
}

class Checker {
 public:
  Checker(DirStore* store, TableDirReport* report) : store_(store), report_(report) {}

  Status Run(const TableDirCheckOptions& options) {
    // The hint first: a writer publishes before it writes the hint, so a hint read before the
    // listing is never ahead of it unless the table is damaged.
    report_->latest_hint = store_->ReadLatestHint();
    Result<std::vector<int64_t>> ids = ListSnapshots();
    if (!ids.ok()) return Status::InvalidArgument(ids.status().message());
    ReadChain(*ids);
    CheckGaps(*ids);
    CheckStructure();
    CheckLiveFiles();
    CheckCommitsOnce();
    CheckHint(ids->empty() ? 0 : ids->back());
    if (options.find_leftovers) FindLeftovers();
    return Status::OK();
  }

 private:
  void Problem(std::string kind, std::string file, std::string message) {
    report_->problems.push_back({std::move(kind), std::move(file), std::move(message)});
  }

  // A listing taken while writers publish may miss a file created during it (readdir promises
  // only the entries that were there when it started), so an id that looks missing is looked up
  // once more. Snapshots are never deleted: one found now was published. Only the first few ids
  // of a gap are looked up again: racing writers leave small gaps, and a damaged name
  // (snapshot-9223372036854775807) must not make the check stat every id below it.
  Result<std::vector<int64_t>> ListSnapshots() {
    constexpr int64_t kRecheckPerGap = 64;
    Result<std::vector<int64_t>> listed = store_->ListSnapshotIds();
    if (!listed.ok() || listed->empty()) return listed;
    std::vector<int64_t> ids;
    int64_t expected = 1;
    for (int64_t id : *listed) {
      for (const int64_t stop = id - expected > kRecheckPerGap ? expected + kRecheckPerGap : id; expected < stop;
           ++expected)
        if (IsRegularFile(store_->SnapshotPath(expected))) ids.push_back(expected);
      if (id > kMaxSnapshotId) {
        Problem("corrupt_id", store_->SnapshotPath(id),
                fmt::format("{}: snapshot id {} is past the largest a table can reach ({}): a damaged or foreign file",
                            store_->SnapshotPath(id), id, kMaxSnapshotId));
        continue;
      }
      ids.push_back(id);
      expected = id + 1;
    }
    return ids;
  }

  // A Paimon reader trusts a hint whose next snapshot does not exist (SnapshotManager.findLatest)
  // and then cannot read snapshot-<hint>. Writers overwrite the hint in place, so a reader can
  // catch one torn for a moment: only a hint still ahead when read again is a problem.
  void CheckHint(int64_t newest) {
    if (!report_->latest_hint || *report_->latest_hint <= newest) return;
    const std::optional<int64_t> again = store_->ReadLatestHint();
    if (!again || *again <= newest || IsRegularFile(store_->SnapshotPath(*again))) return;
    Problem("hint_ahead", store_->LatestHintPath(),
            fmt::format("{} names snapshot {}, but the newest snapshot is {}: a Paimon reader would trust it and "
                        "fail to read snapshot-{}",
                        store_->LatestHintPath(), *again, newest, *again));
  }

  void ReadChain(const std::vector<int64_t>& ids) {
    for (int64_t id : ids) {
      Result<Snapshot> s = store_->ReadSnapshotFile(id);
      if (!s.ok()) {
        Problem("unreadable", store_->SnapshotPath(id), s.status().message());
        continue;
      }
      referenced_manifests_.insert(s->delta_manifest);
      Result<std::vector<FileChange>> changes = store_->ReadManifest(s->delta_manifest, store_->SnapshotPath(id));
      if (!changes.ok()) {
        Problem("unreadable", store_->ManifestPath(s->delta_manifest), changes.status().message());
        continue;
      }
      s->changes = std::move(changes).value();
      for (const FileChange& c : s->changes)
        referenced_files_.insert(fs::path(store_->DataFilePath(c.file)).lexically_normal().string());
      report_->chain.push_back(std::move(s).value());
    }
  }

  // From the listing rather than the chain: an unreadable snapshot is reported as such, not as a gap.
  void CheckGaps(const std::vector<int64_t>& ids) {
    int64_t expected = 1;
    for (int64_t id : ids) {
      if (id != expected) {
        const std::string missing = store_->SnapshotPath(expected);
        Problem("gap", missing,
                expected == 1
                    ? fmt::format("{} does not exist: the first snapshot is {}", missing, id)
                    : fmt::format("{} does not exist: snapshot {} follows snapshot {}", missing, id, expected - 1));
      }
      expected = id + 1;
    }
  }

  void CheckStructure() {
    for (const Violation& v : CheckInvariants(report_->chain, {}, &live_)) {
      if (v.kind == "gap") continue;  // CheckGaps, which also sees unreadable snapshots
      Problem(v.kind, store_->SnapshotPath(v.snapshot), v.message);
    }
  }

  void CheckLiveFiles() {
    const std::vector<DataFile> files = live_.LiveFiles();
    report_->live_files = static_cast<int64_t>(files.size());
    for (const DataFile& f : files) {
      const Status st = store_->VerifyDataFile(f);
      if (st.ok()) continue;
      Problem(st.code() == Code::kNotFound ? "missing_file" : "corrupt_file", store_->DataFilePath(f),
              st.code() == Code::kNotFound ? fmt::format("live data file {} does not exist", store_->DataFilePath(f))
                                           : st.message());
    }
  }

  void CheckCommitsOnce() {
    std::map<std::tuple<std::string, int64_t, CommitKind>, int64_t> first;
    for (const Snapshot& s : report_->chain) {
      auto [it, inserted] = first.try_emplace({s.commit_user, s.commit_identifier, s.kind}, s.id);
      if (inserted) continue;
      Problem("duplicate_commit", store_->SnapshotPath(s.id),
              fmt::format("snapshot {} repeats the commit of snapshot {} ({} identifier {} kind {})", s.id, it->second,
                          s.commit_user, s.commit_identifier, CommitKindName(s.kind)));
    }
  }

  void AddLeftover(LeftoverKind kind, std::string path) {
    const int64_t mtime = MtimeMicros(path, now_micros_);
    report_->leftovers.push_back({kind, std::move(path), std::max<int64_t>(0, now_micros_ - mtime), mtime});
  }

  void FindLeftovers() {
    for (const std::string& dir : {store_->snapshot_dir(), store_->manifest_dir()}) {
      std::error_code ec;
      for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (IsTempName(name)) {
          AddLeftover(LeftoverKind::kTempFile, it->path().string());
        } else if (dir == store_->manifest_dir() && !referenced_manifests_.contains(name)) {
          std::error_code type_ec;
          if (it->is_regular_file(type_ec)) AddLeftover(LeftoverKind::kManifest, it->path().string());
        }
      }
    }
    // Data files live in <root>[/<partition>]/bucket-<b>/.
    const fs::path snapshot_dir = store_->snapshot_dir(), manifest_dir = store_->manifest_dir(),
                   lock_dir = store_->LockDir();
    std::error_code ec;
    fs::recursive_directory_iterator it(store_->root(), fs::directory_options::skip_permission_denied, ec);
    for (fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      std::error_code type_ec;
      if (it.depth() == 0 && (it->path() == snapshot_dir || it->path() == manifest_dir || it->path() == lock_dir)) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->path().parent_path().filename().string().starts_with("bucket-") || !it->is_regular_file(type_ec))
        continue;
      if (IsTempName(name)) {
        AddLeftover(LeftoverKind::kTempFile, it->path().string());
      } else if (!referenced_files_.contains(it->path().lexically_normal().string())) {
        AddLeftover(LeftoverKind::kDataFile, it->path().string());
      }
    }
    std::sort(report_->leftovers.begin(), report_->leftovers.end(),
              [](const Leftover& a, const Leftover& b) { return a.path < b.path; });
  }

  DirStore* const store_;
  TableDirReport* const report_;
  const int64_t now_micros_ = WallMicros();
  TableState live_;  // the files live after the chain, by CheckStructure
  std::set<std::string> referenced_manifests_;
  std::set<std::string> referenced_files_;  // paths of every file a readable manifest names
};

}  // namespace

std::string_view LeftoverKindName(LeftoverKind k) {
  switch (k) {
    case LeftoverKind::kTempFile: return "temp file";
    case LeftoverKind::kManifest: return "unreferenced manifest";
    case LeftoverKind::kDataFile: return "unreferenced data file";
  }
  return "?";
}

std::map<std::string, int64_t> TableDirReport::per_user() const {
  std::map<std::string, int64_t> out;
  for (const Snapshot& s : chain) ++out[s.commit_user];
  return out;
}

Result<TableDirReport> CheckTableDir(const std::string& root, TableDirCheckOptions options) {
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<DirStore> store, DirStore::OpenExisting(root));
  TableDirReport report;
  report.root = root;
  Checker checker(store.get(), &report);
  if (Status st = checker.Run(options); !st.ok()) return st;
  return report;
}

CleanResult CleanLeftovers(const TableDirReport& report, const CleanOptions& options) {
  CleanResult out;
  for (const Leftover& l : report.leftovers) {
    if (l.age_micros < options.older_than_micros) {
      ++out.kept_young;
      continue;
    }
    if (l.mtime_micros >= options.in_flight_cutoff_micros) {
      ++out.kept_in_flight;
      continue;
    }
    if (::unlink(l.path.c_str()) == 0 || errno == ENOENT) {
      out.removed.push_back(l.path);
    } else {
      out.errors.push_back(fmt::format("{}: {}", l.path, std::error_code(errno, std::generic_category()).message()));
    }
  }
  return out;
}

}  // namespace commitlab::sim
