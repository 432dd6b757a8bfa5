#include "commitlab/core/paimon/dir_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>
#include <system_error>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"
#include "commitlab/core/paimon/snapshot_codec.h"
#include "json_write.h"

namespace commitlab {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSnapshotPrefix = "snapshot-";
constexpr std::string_view kLatestHint = "LATEST";
// Caps on what a read pulls into memory, so a stray huge file is reported instead of swallowed.
constexpr size_t kMaxSnapshotBytes = size_t{1} << 20;
constexpr size_t kMaxManifestBytes = size_t{256} << 20;
constexpr size_t kMaxHintBytes = 64;

std::string JoinPath(std::string_view dir, std::string_view name) {
  if (dir.empty() || dir.back() == '/') return fmt::format("{}{}", dir, name);
  return fmt::format("{}/{}", dir, name);
}

// One path component we create ourselves: no separators, no "." or "..", and no leading '.',
// which marks temp files.
bool IsSafeName(std::string_view name) {
  return !name.empty() && name.size() <= 255 && name.front() != '.' &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string_view::npos;
}

// A partition such as "dt=2024-01-01" or "k1=a/k2=b": safe components, and not one of the store's
// own directories.
bool IsSafePartition(std::string_view partition) {
  if (partition.empty()) return true;
  size_t start = 0;
  while (true) {
    const size_t slash = partition.find('/', start);
    const std::string_view part = partition.substr(start, slash == std::string_view::npos ? slash : slash - start);
    if (!IsSafeName(part)) return false;
    if (start == 0 && (part == "snapshot" || part == "manifest")) return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

// Canonical decimal id >= 1 (no sign, no leading zeros), or nullopt.
std::optional<int64_t> ParseId(std::string_view digits) {
  if (digits.empty() || digits.front() == '0') return std::nullopt;
  for (char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  int64_t id = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return id;
}

// The id of a file named exactly snapshot-<id>; temp files and junk give nullopt.
std::optional<int64_t> SnapshotIdOf(std::string_view file_name) {
  if (!file_name.starts_with(kSnapshotPrefix)) return std::nullopt;
  return ParseId(file_name.substr(kSnapshotPrefix.size()));
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// True unless the path certainly does not exist.
bool MayExist(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 || errno != ENOENT;
}

Status MakeDirectories(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!ec && !fs::is_directory(dir, ec) && !ec) ec = std::make_error_code(std::errc::not_a_directory);
  if (ec) return Status::InvalidArgument(fmt::format("cannot create directory {}: {}", dir, ec.message()));
  return Status::OK();
}

// Makes a rename or link in `dir`, or a new subdirectory of it, survive a power loss.
Status SyncDir(const std::string& dir, const DirStoreOptions& options) {
  COMMITLAB_RETURN_IF_ERROR(FsyncDir(dir));
  if (options.on_fsync) options.on_fsync(dir);
  return Status::OK();
}

// Syncs `dir` and each of its parents up to and including `top`: a directory's entry lives in its
// parent, and another process may have made `dir` and died before syncing anything.
Status SyncDirChain(const std::string& dir, const std::string& top, const DirStoreOptions& options) {
  const fs::path stop = fs::path(top).lexically_normal();
  for (fs::path p = fs::path(dir).lexically_normal(); !p.empty(); p = p.parent_path()) {
    COMMITLAB_RETURN_IF_ERROR(SyncDir(p.string(), options));
    if (p == stop || p == p.parent_path()) break;
  }
  return Status::OK();
}

// Writes `content` to a fresh temp file in `dir` next to `name`; returns its path. With
// Fsync::kData or kAll the content is on disk before the caller renames it into place.
Result<std::string> WriteTempFile(const std::string& dir, const std::string& name, std::string_view content,
                                  const DirStoreOptions& options) {
  return WriteTempBeside(JoinPath(dir, name), content, options.fsync != Fsync::kOff, options.on_fsync);
}

int RenameNoReplace(const char* from, const char* to) {
#if defined(RENAME_NOREPLACE)
  return ::renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#elif defined(SYS_renameat2)
  constexpr unsigned kRenameNoReplace = 1;  // RENAME_NOREPLACE in <linux/fs.h>
  return static_cast<int>(::syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, kRenameNoReplace));
#else
  errno = ENOSYS;
  return -1;
#endif
}

enum class CreateOutcome { kCreated, kExists };

// link(2) fails with EEXIST instead of replacing, on every POSIX filesystem with hard links.
Result<CreateOutcome> LinkNoReplace(const std::string& tmp, const std::string& target) {
  if (::link(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    if (err == EEXIST) return CreateOutcome::kExists;
    return IoError("publish", target, err);
  }
  ::unlink(tmp.c_str());  // a leftover temp is ignored by every reader
  return CreateOutcome::kCreated;
}

// Moves the finished temp file to `target` unless `target` exists: the atomic create-if-absent.
// Paimon's LocalFileIO checks existence and renames under a JVM-wide lock, which protects threads
// of one JVM only; rename(2) would silently replace a file another process just published.
// RENAME_NOREPLACE and link(2) make the kernel do the check, so processes are safe too.
Result<CreateOutcome> MoveNoReplace(const std::string& tmp, const std::string& target, bool rename_noreplace) {
  if (!rename_noreplace) return LinkNoReplace(tmp, target);
  if (RenameNoReplace(tmp.c_str(), target.c_str()) == 0) return CreateOutcome::kCreated;
  const int err = errno;
  if (err == EINVAL || err == ENOSYS) return LinkNoReplace(tmp, target);  // no RENAME_NOREPLACE here
  ::unlink(tmp.c_str());
  if (err == EEXIST) return CreateOutcome::kExists;
  return IoError("publish", target, err);
}

Result<CreateOutcome> CreateNoReplace(const std::string& dir, const std::string& name, std::string_view content,
                                      const DirStoreOptions& options) {
  COMMITLAB_ASSIGN_OR_RETURN(std::string tmp, WriteTempFile(dir, name, content, options));
  Result<CreateOutcome> r = MoveNoReplace(tmp, JoinPath(dir, name), options.rename_noreplace);
  if (r.ok() && *r == CreateOutcome::kCreated && options.fsync == Fsync::kAll) {
    if (Status st = SyncDir(dir, options); !st.ok()) return st;
  }
  return r;
}

// Atomically replaces dir/name with `content` (temp file + rename(2)).
Status ReplaceFile(const std::string& dir, const std::string& name, std::string_view content,
                   const DirStoreOptions& options) {
  COMMITLAB_ASSIGN_OR_RETURN(std::string tmp, WriteTempFile(dir, name, content, options));
  const std::string target = JoinPath(dir, name);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return IoError("rename to", target, err);
  }
  return options.fsync == Fsync::kAll ? SyncDir(dir, options) : Status::OK();
}

// Overwrites dir/name in place with `content`, creating it if absent. Readers may see it torn.
Status OverwriteInPlace(const std::string& dir, const std::string& name, std::string_view content) {
  const std::string path = JoinPath(dir, name);
  // Never blocks on a FIFO (O_NONBLOCK: no reader is ENXIO) nor writes through a symbolic link.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd < 0) return IoError("open", path, errno);
  struct stat type;
  if (::fstat(fd, &type) != 0 || !S_ISREG(type.st_mode)) {
    ::close(fd);
    return Status::IOError(fmt::format("cannot write {}: not a regular file", path));
  }
  Status st = Status::OK();
  const ssize_t n = ::pwrite(fd, content.data(), content.size(), 0);
  if (n != static_cast<ssize_t>(content.size())) {
    st = IoError("write", path, n < 0 ? errno : EIO);
  } else {
    struct stat sb;
    if (::fstat(fd, &sb) == 0 && sb.st_size > static_cast<off_t>(content.size()) &&
        ::ftruncate(fd, static_cast<off_t>(content.size())) != 0) {
      st = IoError("truncate", path, errno);
    }
  }
  ::close(fd);
  return st;
}

std::string DataFileLine(const DataFile& f) {
  const nlohmann::ordered_json v = {
      {"fileName", f.name},  {"partition", f.partition}, {"bucket", f.bucket},      {"level", f.level},
      {"minKey", f.min_key}, {"maxKey", f.max_key},      {"rowCount", f.row_count},
  };
  return json_io::Compact(v) + "\n";
}

std::string BucketDir(const std::string& root, const DataFile& f) {
  const std::string bucket = fmt::format("bucket-{}", f.bucket);
  return f.partition.empty() ? JoinPath(root, bucket) : JoinPath(JoinPath(root, f.partition), bucket);
}

// Sorted names of the regular, non-temp files directly in `dir`.
std::vector<std::string> ListFileNames(const std::string& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (IsSafeName(name) && it->is_regular_file(type_ec)) names.insert(std::move(name));
  }
  return {names.begin(), names.end()};
}

}  // namespace

DirStore::DirStore(std::string root, DirStoreOptions options)
    : root_(std::move(root)),
      snapshot_dir_(JoinPath(root_, "snapshot")),
      manifest_dir_(JoinPath(root_, "manifest")),
      options_(options) {}

namespace {

// A directory with other things in it but no snapshot/ is not a table: writing there would mix a
// table into someone's files. An absent one, or one holding nothing but our lock/ folder, becomes a
// table. Open makes snapshot/ first, so a writer that sees anything in the directory of one being
// created also finds snapshot/ when it looks after the listing.
Status CheckJoinable(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Status::OK();
  if (!fs::is_directory(dir, ec)) return Status::InvalidArgument(fmt::format("{} is not a directory", dir));
  bool ours = true;  // nothing in it but lock/
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end && ours; it.increment(ec))
    ours = it->path().filename() == "lock";
  if (ec) return Status::InvalidArgument(fmt::format("cannot list {}: {}", dir, ec.message()));
  if (ours || fs::is_directory(fs::path(dir) / "snapshot", ec)) return Status::OK();
  return Status::InvalidArgument(
      fmt::format("{} holds files but no snapshot/ directory: not a table directory; use an empty one", dir));
}

}  // namespace

Result<std::unique_ptr<DirStore>> DirStore::Open(std::string root, DirStoreOptions options) {
  if (root.empty()) return Status::InvalidArgument("DirStore root must not be empty");
  COMMITLAB_RETURN_IF_ERROR(CheckJoinable(root));
  std::unique_ptr<DirStore> store(new DirStore(std::move(root), options));
  for (const std::string* dir : {&store->root_, &store->snapshot_dir_, &store->manifest_dir_})
    COMMITLAB_RETURN_IF_ERROR(MakeDirectories(*dir));
  if (options.fsync == Fsync::kAll) {
    // Any of them, and the root's parents, may be new.
    COMMITLAB_RETURN_IF_ERROR(SyncDir(store->snapshot_dir_, options));
    COMMITLAB_RETURN_IF_ERROR(SyncDir(store->manifest_dir_, options));
    COMMITLAB_RETURN_IF_ERROR(SyncDirChain(fs::absolute(store->root_).string(), "/", options));
  }
  COMMITLAB_ASSIGN_OR_RETURN(LiveWriter live, LiveWriter::Join(store->LockDir()));
  store->live_.emplace(std::move(live));
  return store;
}

Result<std::unique_ptr<DirStore>> DirStore::OpenExisting(std::string root, DirStoreOptions options) {
  if (root.empty()) return Status::InvalidArgument("the table directory must not be empty");
  std::error_code ec;
  const fs::file_status st = fs::status(root, ec);
  if (st.type() == fs::file_type::not_found) return Status::InvalidArgument(fmt::format("{} does not exist", root));
  if (ec) return Status::InvalidArgument(fmt::format("cannot read {}: {}", root, ec.message()));
  if (!fs::is_directory(st)) return Status::InvalidArgument(fmt::format("{} is not a directory", root));
  std::unique_ptr<DirStore> store(new DirStore(std::move(root), options));
  if (!fs::is_directory(store->snapshot_dir_, ec))
    return Status::InvalidArgument(
        fmt::format("{} is not a table directory: {} does not exist", store->root_, store->snapshot_dir_));
  return store;
}

std::string DirTableName(const std::string& root) {
  fs::path p = fs::absolute(root).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "t/" and "." normalize to a trailing separator
  return p.filename().string();
}

std::string_view FsyncName(Fsync f) {
  switch (f) {
    case Fsync::kOff: return "off";
    case Fsync::kData: return "data";
    case Fsync::kAll: return "all";
  }
  return "?";
}

std::optional<Fsync> ParseFsync(std::string_view s) {
  for (Fsync f : {Fsync::kOff, Fsync::kData, Fsync::kAll})
    if (FsyncName(f) == s) return f;
  return std::nullopt;
}

std::string DirStore::SnapshotPath(int64_t id) const {
  return JoinPath(snapshot_dir_, fmt::format("{}{}", kSnapshotPrefix, id));
}

std::string DirStore::LockDir() const { return JoinPath(root_, "lock"); }

std::string DirStore::LatestHintPath() const { return JoinPath(snapshot_dir_, kLatestHint); }

std::string DirStore::ManifestPath(std::string_view name) const { return JoinPath(manifest_dir_, name); }

std::string DirStore::DataFilePath(const DataFile& f) const { return JoinPath(BucketDir(root_, f), f.name); }

// ---------------------------------------------------------------------------------------------
// Reading

std::optional<int64_t> DirStore::ReadLatestHint() const {
  Result<std::string> text = ReadRegularFile(LatestHintPath(), kMaxHintBytes);
  if (!text.ok()) return std::nullopt;
  std::string_view digits = *text;
  while (!digits.empty() && (digits.back() == '\n' || digits.back() == '\r' || digits.back() == ' '))
    digits.remove_suffix(1);
  std::optional<int64_t> id = ParseId(digits);
  if (id && *id > kMaxSnapshotId) return std::nullopt;  // not a hint we wrote: fall back to listing
  return id;
}

Result<int64_t> DirStore::FindLatestId() const {
  // Paimon's SnapshotManager.findLatest: the hint is right unless a newer snapshot appeared, and
  // then Paimon lists the directory. Racing writers leave the hint a step or two behind for a
  // moment, so a few ids are probed forward first: a listing costs O(snapshots).
  constexpr int kForwardProbes = 8;
  if (std::optional<int64_t> hint = ReadLatestHint(); hint && IsRegularFile(SnapshotPath(*hint))) {
    int64_t id = *hint;
    for (int probe = 0; probe <= kForwardProbes; ++probe) {
      if (!MayExist(SnapshotPath(id + 1))) return id;
      if (!IsRegularFile(SnapshotPath(id + 1))) break;
      ++id;
    }
  }
  Result<int64_t> listed = ListLatestId();
  if (listed.ok() && *listed > kMaxSnapshotId) {
    return Status::Corruption(
        fmt::format("{}: snapshot id {} is past the largest a table can reach ({}): a damaged "
                    "or foreign file",
                    SnapshotPath(*listed), *listed, kMaxSnapshotId));
  }
  return listed;
}

Result<std::vector<int64_t>> DirStore::ListSnapshotIds() const {
  std::vector<int64_t> ids;
  std::error_code ec;
  fs::directory_iterator it(snapshot_dir_, ec);
  for (fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    // Whatever its type: a directory or a link under a snapshot's name is a damaged snapshot, which
    // ReadSnapshotFile names, not a gap.
    if (const std::optional<int64_t> id = SnapshotIdOf(it->path().filename().string())) ids.push_back(*id);
  }
  if (ec) return Status::IOError(fmt::format("cannot list {}: {}", snapshot_dir_, ec.message()));
  std::sort(ids.begin(), ids.end());
  return ids;
}

Result<int64_t> DirStore::ListLatestId() const {
  std::error_code ec;
  int64_t latest = 0;
  fs::directory_iterator it(snapshot_dir_, ec);
  for (fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    const std::optional<int64_t> id = SnapshotIdOf(it->path().filename().string());
    if (id && *id > latest) latest = *id;
  }
  if (ec) return Status::IOError(fmt::format("cannot list {}: {}", snapshot_dir_, ec.message()));
  return latest;
}

Result<std::optional<Snapshot>> DirStore::LatestSnapshotImpl() {
  COMMITLAB_ASSIGN_OR_RETURN(int64_t id, FindLatestId());
  if (id == 0) return std::optional<Snapshot>();
  COMMITLAB_ASSIGN_OR_RETURN(Snapshot s, ReadSnapshot(id));
  return std::optional<Snapshot>(std::move(s));
}

Result<Snapshot> DirStore::ReadSnapshotImpl(int64_t id) {
  COMMITLAB_ASSIGN_OR_RETURN(Snapshot s, ReadSnapshotFile(id));
  COMMITLAB_CHECK(s.id == id, "ReadSnapshotFile refuses a file holding another id: a committer replays by id");
  COMMITLAB_ASSIGN_OR_RETURN(std::vector<FileChange> changes, ReadManifest(s.delta_manifest, SnapshotPath(id)));
  s.changes = std::move(changes);
  return s;
}

Result<Snapshot> DirStore::ReadSnapshotFile(int64_t id) const {
  const std::string path = SnapshotPath(id);
  if (id < 1) return Status::NotFound(fmt::format("Snapshot file {} does not exist.", path));
  // A snapshot is a regular file we wrote; a link (even to one) or anything else is damage.
  struct stat type;
  if (::lstat(path.c_str(), &type) == 0 && !S_ISREG(type.st_mode)) {
    return Status::Corruption(
        fmt::format("{}: a {}, not a snapshot file: the table is damaged", path, FileTypeName(type.st_mode)));
  }
  Result<std::string> text = ReadRegularFile(path, kMaxSnapshotBytes);
  if (!text.ok()) {
    if (text.status().code() == Code::kNotFound)
      return Status::NotFound(fmt::format("Snapshot file {} does not exist.", path));
    return text.status();
  }
  COMMITLAB_ASSIGN_OR_RETURN(Snapshot s, DecodeSnapshot(*text, path));
  if (s.id != id) return Status::Corruption(fmt::format("{}: holds id {}, expected {}", path, s.id, id));
  return s;
}

Result<std::vector<FileChange>> DirStore::ReadManifest(const std::string& name,
                                                       const std::string& referenced_by) const {
  if (!IsSafeName(name)) {
    return Status::Corruption(fmt::format("{}: field \"deltaManifestList\" is not a manifest file name: {}",
                                          referenced_by, json_io::Quote(name)));
  }
  const std::string path = ManifestPath(name);
  Result<std::string> text = ReadRegularFile(path, kMaxManifestBytes);
  if (!text.ok()) {
    if (text.status().code() == Code::kNotFound)
      return Status::Corruption(fmt::format("{}: manifest {} does not exist", referenced_by, path));
    return text.status();
  }
  return DecodeManifest(*text, path);
}

// ---------------------------------------------------------------------------------------------
// Writing

Status DirStore::WriteManifestImpl(const std::string& name, const std::vector<FileChange>& changes) {
  COMMITLAB_CHECK(live_.has_value(),
                  "a store that writes was opened to (Open): an orphan cleaner spares a live writer's files");
  if (!IsSafeName(name)) return Status::InvalidArgument(fmt::format("invalid manifest name {}", json_io::Quote(name)));
  COMMITLAB_ASSIGN_OR_RETURN(CreateOutcome r, CreateNoReplace(manifest_dir_, name, EncodeManifest(changes), options_));
  if (r == CreateOutcome::kExists)
    return Status::InvalidArgument(fmt::format("manifest {} already exists", ManifestPath(name)));
  return Status::OK();
}

Status DirStore::CheckPublishable(const Snapshot& s) const {
  if (s.id < 1) return Status::InvalidArgument(fmt::format("cannot publish snapshot id {}: ids start at 1", s.id));
  if (!IsSafeName(s.delta_manifest))
    return Status::InvalidArgument(fmt::format("invalid manifest name {}", json_io::Quote(s.delta_manifest)));
  // Snapshots are never deleted, so once snapshot-(N-1) exists this stays true.
  if (s.id > 1 && !IsRegularFile(SnapshotPath(s.id - 1)))
    return Status::InvalidArgument(fmt::format("snapshot-{} would leave a gap after snapshot-{}", s.id, s.id - 1));
  // Every file the snapshot brings must be there, as TableCommitImpl.checkFilesExistence demands of a
  // recovered commit: a snapshot naming a file that is gone would be an acknowledged commit lost.
  auto gone = [&](const std::string& path, std::string_view what) {
    return Status::NotFound(
        fmt::format("cannot publish snapshot-{}: its {} {} is gone (removed by an orphan cleaner "
                    "or by hand?); nothing was published",
                    s.id, what, path));
  };
  if (!IsRegularFile(ManifestPath(s.delta_manifest))) return gone(ManifestPath(s.delta_manifest), "manifest");
  for (const FileChange& c : s.changes)
    if (c.kind == ChangeKind::kAdd && !IsRegularFile(DataFilePath(c.file)))
      return gone(DataFilePath(c.file), "data file");
  return Status::OK();
}

PublishResult DirStore::PublishImpl(const Snapshot& s) {
  COMMITLAB_CHECK(live_.has_value(),
                  "a store that writes was opened to (Open): an orphan cleaner spares a live writer's files");
  if (Status st = CheckPublishable(s); !st.ok()) return {PublishOutcome::kError, std::move(st)};
  Result<CreateOutcome> r =
      CreateNoReplace(snapshot_dir_, fmt::format("{}{}", kSnapshotPrefix, s.id), EncodeSnapshot(s), options_);
  if (!r.ok()) return {PublishOutcome::kError, r.status()};
  if (*r == CreateOutcome::kExists) return {PublishOutcome::kAlreadyExists, Status::OK()};
  WriteLatestHint(s.id);
  return {PublishOutcome::kPublished, Status::OK()};
}

void DirStore::WriteLatestHint(int64_t id) const {
  // Advisory: a failed, torn or out-of-order write only makes readers probe or list. Never
  // fsync'ed: after a power loss readers verify it like any other stale hint.
  const std::string text = fmt::format("{}", id);
  if (options_.latest_hint == LatestHintWrite::kInPlace) {
    (void)OverwriteInPlace(snapshot_dir_, std::string(kLatestHint), text);
  } else {
    (void)ReplaceFile(snapshot_dir_, std::string(kLatestHint), text, DirStoreOptions{.rename_noreplace = true});
  }
}

Status DirStore::WriteDataFileImpl(const DataFile& f) {
  COMMITLAB_CHECK(live_.has_value(),
                  "a store that writes was opened to (Open): an orphan cleaner spares a live writer's files");
  if (!IsSafeName(f.name) || !IsSafePartition(f.partition)) {
    return Status::InvalidArgument(fmt::format("invalid data file path: partition {}, name {}",
                                               json_io::Quote(f.partition), json_io::Quote(f.name)));
  }
  const std::string dir = BucketDir(root_, f);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError(fmt::format("cannot create directory {}: {}", dir, ec.message()));
  if (options_.fsync == Fsync::kAll && !Synced(dir)) {
    COMMITLAB_RETURN_IF_ERROR(SyncDirChain(dir, root_, options_));
    MarkSynced(dir);  // only once it held: a failed sync is tried again by the next write
  }
  return ReplaceFile(dir, f.name, DataFileLine(f), options_);
}

bool DirStore::Synced(const std::string& dir) {
  MutexLock lock(&synced_mu_);
  return synced_dirs_.count(dir) > 0;
}

void DirStore::MarkSynced(const std::string& dir) {
  MutexLock lock(&synced_mu_);
  synced_dirs_.insert(dir);
}

Status DirStore::VerifyDataFile(const DataFile& f) const {
  const std::string path = DataFilePath(f);
  COMMITLAB_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(path, kMaxSnapshotBytes));
  if (text != DataFileLine(f)) {
    return Status::Corruption(fmt::format("{}: does not hold the file its manifest describes ({} bytes, expected {})",
                                          path, text.size(), DataFileLine(f).size()));
  }
  return Status::OK();
}

bool DirStore::DataFileExists(const DataFile& f) {
  return IsSafeName(f.name) && IsSafePartition(f.partition) && IsRegularFile(DataFilePath(f));
}

Status DirStore::DeleteDataFileImpl(const DataFile& f) {
  if (!DataFileExists(f)) return Status::NotFound(fmt::format("{} does not exist", DataFilePath(f)));
  std::error_code ec;
  const bool removed = fs::remove(DataFilePath(f), ec);
  if (ec) return Status::IOError(fmt::format("cannot remove {}: {}", DataFilePath(f), ec.message()));
  // Gone between the check and the removal: another writer deleted it first.
  if (!removed) return Status::NotFound(fmt::format("{} does not exist", DataFilePath(f)));
  return Status::OK();
}

std::vector<std::string> DirStore::ListManifests() { return ListFileNames(manifest_dir_); }

std::vector<std::string> DirStore::ListDataFiles() {
  std::set<std::string> names;
  std::error_code ec;
  fs::recursive_directory_iterator it(root_, fs::directory_options::skip_permission_denied, ec);
  for (fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    std::string name = p.filename().string();
    std::error_code type_ec;
    if (it.depth() == 0 && (name == "snapshot" || name == "manifest")) {
      it.disable_recursion_pending();
    } else if (IsSafeName(name) && p.parent_path().filename().string().starts_with("bucket-") &&
               it->is_regular_file(type_ec)) {
      names.insert(std::move(name));
    }
  }
  return {names.begin(), names.end()};
}

// ---------------------------------------------------------------------------------------------
// The engine's entry points, each noting the first failure the OS reported

Status DirStore::Noted(Status st) const {
  if (st.code() == Code::kIOError) {
    MutexLock lock(&io_mu_);
    if (!first_io_error_) first_io_error_ = st.message();
  }
  return st;
}

PublishResult DirStore::Noted(PublishResult r) const {
  (void)Noted(r.error);
  return r;
}

std::optional<std::string> DirStore::first_io_error() const {
  MutexLock lock(&io_mu_);
  return first_io_error_;
}

Result<std::optional<Snapshot>> DirStore::LatestSnapshot() { return Noted(LatestSnapshotImpl()); }
Result<Snapshot> DirStore::ReadSnapshot(int64_t id) { return Noted(ReadSnapshotImpl(id)); }
Status DirStore::WriteManifest(const std::string& name, const std::vector<FileChange>& changes) {
  return Noted(WriteManifestImpl(name, changes));
}
PublishResult DirStore::Publish(const Snapshot& s) { return Noted(PublishImpl(s)); }
Status DirStore::WriteDataFile(const DataFile& f) { return Noted(WriteDataFileImpl(f)); }
Status DirStore::DeleteDataFile(const DataFile& f) { return Noted(DeleteDataFileImpl(f)); }

}  // namespace commitlab
