// FileIO: the object store under an Iceberg table (data files, manifests, manifest lists,
// metadata files), after org.apache.iceberg.io.FileIO. It keeps every file it was given until
// someone deletes it, so files no snapshot references (orphans) can be counted and removed; an
// InMemoryFileIO made to forget metadata keeps data files only.
#ifndef COMMITLAB_CORE_ICEBERG_FILE_IO_H_
#define COMMITLAB_CORE_ICEBERG_FILE_IO_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

enum class FileKind { kData, kManifest, kManifestList, kMetadata };
std::string_view FileKindName(FileKind kind);  // "data", "manifest", "manifest-list", "metadata"

struct StoredFile {
  std::string path = {};
  FileKind kind = FileKind::kData;
  int64_t written_micros = 0;  // Env time of the write: orphan cleanup spares recent files
  std::string writer = {};
  FileRef data = {};  // kData only: what a reader gets back
};

class FileIO {
 public:
  virtual ~FileIO() = default;

  // Creates f.path. Paths carry UUIDs, so an existing path is a bug: InvalidArgument.
  virtual Status Write(StoredFile f) = 0;
  // NotFound "File does not exist: <path>" for a file never written or already deleted.
  virtual Result<FileRef> ReadDataFile(const std::string& path) = 0;
  virtual bool Exists(const std::string& path) = 0;
  // NotFound when absent.
  virtual Status Delete(const std::string& path) = 0;
  // Every file, in path order.
  virtual std::vector<StoredFile> List() = 0;
};

// Thread-safe (one mutex, never held across a call out) unless made for one thread (a simulated
// run, where writers are fibers of one thread), which skips the mutex.
class InMemoryFileIO final : public FileIO {
 public:
  enum class Threads { kMany, kOne };
  // kForget: files other than data files (manifests, manifest lists, metadata files) are written
  // and deleted without being kept, for runs that never read them back (a sweep writes millions).
  // Then the FileIO contract holds for data files only: Exists and List see data files, a second
  // write of another path is accepted, ReadDataFile of one is NotFound, and Delete succeeds for a
  // path that is not there.
  enum class Metadata { kKeep, kForget };
  explicit InMemoryFileIO(Threads threads = Threads::kMany, Metadata metadata = Metadata::kKeep)
      : locking_(threads == Threads::kMany), keep_metadata_(metadata == Metadata::kKeep) {}

  Status Write(StoredFile f) override;
  Result<FileRef> ReadDataFile(const std::string& path) override;
  bool Exists(const std::string& path) override;
  Status Delete(const std::string& path) override;
  std::vector<StoredFile> List() override;

 private:
  // By path, looked up by any string_view of one: the path is stored once, in the file.
  struct PathHash {
    using is_transparent = void;
    size_t operator()(std::string_view path) const { return std::hash<std::string_view>()(path); }
    size_t operator()(const StoredFile& f) const { return (*this)(f.path); }
  };
  struct PathEqual {
    using is_transparent = void;
    static std::string_view Path(std::string_view path) { return path; }
    static std::string_view Path(const StoredFile& f) { return f.path; }
    bool operator()(const auto& a, const auto& b) const { return Path(a) == Path(b); }
  };

  const bool locking_;  // false: one thread only, and mu_ is never locked (MaybeMutexLock)
  const bool keep_metadata_;
  Mutex mu_;
  // Hashed: a sweep's table gathers tens of thousands of paths that share long prefixes, and an
  // ordered map compared them a dozen times per write. List() sorts.
  std::unordered_set<StoredFile, PathHash, PathEqual> files_ GUARDED_BY(mu_);
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_FILE_IO_H_
