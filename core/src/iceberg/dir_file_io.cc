#include "commitlab/core/iceberg/dir_file_io.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <optional>
#include <system_error>

#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "json_parse.h"
#include "json_write.h"

namespace commitlab::iceberg {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

constexpr size_t kMaxFileBytes = size_t{64} << 20;

// A relative path that stays under the root.
bool SafePath(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  for (const fs::path& part : fs::path(path))
    if (part == ".." || part == ".") return false;
  return true;
}

std::optional<FileKind> ParseKind(std::string_view s) {
  for (FileKind k : {FileKind::kData, FileKind::kManifest, FileKind::kManifestList, FileKind::kMetadata})
    if (FileKindName(k) == s) return k;
  return std::nullopt;
}

}  // namespace

Status DirFileIO::Write(StoredFile f) {
  if (!SafePath(f.path)) return Status::InvalidArgument("Not a path inside the table: " + f.path);
  const std::string full = root_ + "/" + f.path;
  std::error_code ec;
  fs::create_directories(FolderOf(full), ec);
  if (ec) return Status::IOError(fmt::format("cannot create the folder of {}: {}", full, ec.message()));
  ordered_json envelope = {{"kind", FileKindName(f.kind)}, {"writer", f.writer}, {"written-micros", f.written_micros}};
  if (f.data != nullptr) envelope["data"] = json::parse(EncodeDataFile(*f.data));
  COMMITLAB_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(full, json_io::Compact(envelope), sync_));
  // link(2) refuses an existing name, so of two writers of one path exactly one succeeds.
  const int rc = ::link(tmp.c_str(), full.c_str());
  const int err = errno;
  ::unlink(tmp.c_str());
  if (rc != 0) {
    if (err == EEXIST) return Status::InvalidArgument("File already exists: " + f.path);
    return IoError("link", full, err);
  }
  return sync_ ? FsyncDir(FolderOf(full)) : Status::OK();
}

Result<StoredFile> DirFileIO::Read(const std::string& path) {
  if (!SafePath(path)) return Status::NotFound("File does not exist: " + path);
  const std::string full = root_ + "/" + path;
  Result<std::string> text = ReadRegularFile(full, kMaxFileBytes);
  if (!text.ok()) {
    if (text.status().code() == Code::kNotFound) return Status::NotFound("File does not exist: " + path);
    return text.status();
  }
  Result<json> doc = json_io::Parse(*text);
  if (!doc.ok() || !doc->is_object() || !doc->contains("kind") || !(*doc)["kind"].is_string())
    return Status::Corruption(fmt::format("{}: not a file of this table", full));
  std::optional<FileKind> kind = ParseKind((*doc)["kind"].get<std::string>());
  if (!kind) return Status::Corruption(fmt::format("{}: unknown kind", full));
  StoredFile f;
  f.path = path;
  f.kind = *kind;
  // Fields of another type (a file someone else put here) read as absent rather than throw.
  if (doc->contains("writer") && (*doc)["writer"].is_string()) f.writer = (*doc)["writer"].get<std::string>();
  if (doc->contains("written-micros") && (*doc)["written-micros"].is_number_integer())
    f.written_micros = (*doc)["written-micros"].get<int64_t>();
  if (doc->contains("data")) {
    COMMITLAB_ASSIGN_OR_RETURN(FileRef data, DecodeDataFile((*doc)["data"].dump(), full));
    f.data = data;
  }
  return f;
}

Result<FileRef> DirFileIO::ReadDataFile(const std::string& path) {
  COMMITLAB_ASSIGN_OR_RETURN(StoredFile f, Read(path));
  if (f.kind != FileKind::kData || f.data == nullptr) return Status::InvalidArgument("Not a data file: " + path);
  return f.data;
}

bool DirFileIO::Exists(const std::string& path) {
  std::error_code ec;
  return SafePath(path) && fs::is_regular_file(root_ + "/" + path, ec);
}

Status DirFileIO::Delete(const std::string& path) {
  if (!SafePath(path)) return Status::NotFound("File does not exist: " + path);
  const std::string full = root_ + "/" + path;
  if (::unlink(full.c_str()) != 0) {
    if (errno == ENOENT) return Status::NotFound("File does not exist: " + path);
    return IoError("delete", full, errno);
  }
  return Status::OK();
}

std::vector<StoredFile> DirFileIO::List() {
  std::vector<StoredFile> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string name = it->path().filename().string();
    if (!name.empty() && name.front() == '.') continue;  // a temporary in flight
    Result<StoredFile> f = Read(fs::relative(it->path(), root_, ec).string());
    if (f.ok()) out.push_back(std::move(*f));
  }
  std::sort(out.begin(), out.end(), [](const StoredFile& a, const StoredFile& b) { return a.path < b.path; });
  return out;
}

}  // namespace commitlab::iceberg
