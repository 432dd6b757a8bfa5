#include "commitlab/core/iceberg/file_set.h"

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/model.h"

namespace commitlab::iceberg {

const std::string& FileSet::PathOf::operator()(const Entry& e) const { return e.file->path(); }

FileSet::value_type FileSet::const_iterator::operator*() const {
  const FileRef& f = it_->file;
  return {f->path(), f};
}

size_t FileSet::count(std::string_view path) const {
  size_t n = 0;
  for (const_iterator it = lower_bound(path); it != end() && (*it).first == path; ++it) ++n;
  return n;
}

int64_t FileSet::sequence(std::string_view path) const {
  const Pos p = entries_.Find(path);
  return p != entries_.end() ? entries_.at(p).sequence : 0;
}

void FileSet::emplace(std::string_view path, const FileRef& f, int64_t sequence) {
  COMMITLAB_DCHECK(path == f->path(), "a FileSet is keyed by each file's own path");
  Pos p = entries_.LowerBound(path);
  for (; p != entries_.end() && PathOf()(entries_.at(p)) == path; p = entries_.Next(p))
    if (entries_.at(p).sequence != sequence) entries_.Replace(p, {entries_.at(p).file, sequence});
  entries_.Insert(p, {f, sequence});
}

}  // namespace commitlab::iceberg
