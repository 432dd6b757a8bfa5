// DirFileIO: an Iceberg table's files in a folder that writers in several processes share, each
// file at <root>/<path> as one line of JSON: {"kind", "writer", "written-micros", "data"} with a
// data file's contents under "data" (metadata_json.h's EncodeDataFile). A file is created with
// O_EXCL through a temporary and a link (file_write.h), so a reader never sees half of one and
// two writers of one path cannot both succeed.
#ifndef COMMITLAB_CORE_ICEBERG_DIR_FILE_IO_H_
#define COMMITLAB_CORE_ICEBERG_DIR_FILE_IO_H_

#include <string>
#include <vector>

#include "commitlab/core/iceberg/file_io.h"

namespace commitlab::iceberg {

// Thread-safe (the file system is the only state).
class DirFileIO final : public FileIO {
 public:
  // REQUIRES: `root` exists. `sync`: fsync each file and its folder before Write returns.
  explicit DirFileIO(std::string root, bool sync = false) : root_(std::move(root)), sync_(sync) {}

  Status Write(StoredFile f) override;
  // NotFound for a path never written or deleted; Corruption naming the file for one this did not write.
  Result<FileRef> ReadDataFile(const std::string& path) override;
  bool Exists(const std::string& path) override;
  Status Delete(const std::string& path) override;
  // Every file under the root, in path order; a file that cannot be read is skipped.
  std::vector<StoredFile> List() override;

 private:
  Result<StoredFile> Read(const std::string& path);
  const std::string root_;
  const bool sync_;
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_DIR_FILE_IO_H_
