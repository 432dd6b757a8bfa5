#include "commitlab/core/iceberg/file_set.h"

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/model.h"

namespace commitlab::iceberg {

const std::string& FileSet::PathOf::operator()(const FileRef& f) const { return f->path(); }

FileSet::value_type FileSet::const_iterator::operator*() const {
  const FileRef& f = *it_;
  return {f->path(), f};
}

size_t FileSet::count(std::string_view path) const {
  size_t n = 0;
  for (const_iterator it = lower_bound(path); it != end() && (*it).first == path; ++it) ++n;
  return n;
}

void FileSet::emplace(std::string_view path, const FileRef& f) {
  COMMITLAB_DCHECK(path == f->path(), "a FileSet is keyed by each file's own path");
  entries_.Insert(entries_.UpperBound(path), f);
}

}  // namespace commitlab::iceberg
