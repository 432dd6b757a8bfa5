#include "commitlab/sim/import/import.h"

#include <fmt/format.h>

#include <filesystem>
#include <vector>

#include "checker.h"
#include "readers.h"

namespace commitlab::sim::import {
namespace {

namespace fs = std::filesystem;

bool IsDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// Whether `dir` holds an entry whose name `match` accepts (stops at the first).
template <typename Match>
bool Holds(const fs::path& dir, Match match) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return false;
  for (const fs::directory_entry& e : it)
    if (match(e.path().filename().string())) return true;
  return false;
}

bool DeltaCommitName(const std::string& n) {
  return n.size() == 25 && n.ends_with(".json") && n.find_first_not_of("0123456789") == 20;
}
bool IcebergMetadataName(const std::string& n) { return n.ends_with(".metadata.json"); }
bool PaimonSnapshotName(const std::string& n) { return n.starts_with("snapshot-") || n == "EARLIEST" || n == "LATEST"; }

}  // namespace

std::string_view FormatName(Format f) {
  switch (f) {
    case Format::kDelta: return "delta";
    case Format::kIceberg: return "iceberg";
    case Format::kPaimon: return "paimon";
  }
  return "?";
}

std::optional<Format> ParseFormat(std::string_view s) {
  for (Format f : {Format::kDelta, Format::kIceberg, Format::kPaimon})
    if (FormatName(f) == s) return f;
  return std::nullopt;
}

Result<Format> DetectFormat(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (ec || !fs::exists(st)) return Status::InvalidArgument(fmt::format("{}: no such file or folder", path));
  if (fs::is_regular_file(st)) {
    // One file can only be an Iceberg table-metadata file; a Delta commit or a Paimon snapshot is
    // one commit of a log, which is read as a whole.
    const std::string name = p.filename().string();
    if (DeltaCommitName(name) || name.starts_with("snapshot-"))
      return Status::InvalidArgument(fmt::format("{}: one commit of a log: give the table's folder", path));
    if (name.ends_with(".json")) return Format::kIceberg;
    return Status::InvalidArgument(
        fmt::format("{}: a file, but not an Iceberg metadata file (*.metadata.json): give the table's folder", path));
  }
  if (!fs::is_directory(st)) return Status::InvalidArgument(fmt::format("{}: not a file or folder", path));
  std::vector<Format> found;
  if (p.filename() == "_delta_log" || IsDir(p / "_delta_log") || Holds(p, DeltaCommitName))
    found.push_back(Format::kDelta);
  if ((IsDir(p / "metadata") && Holds(p / "metadata", IcebergMetadataName)) || Holds(p, IcebergMetadataName))
    found.push_back(Format::kIceberg);
  if ((IsDir(p / "snapshot") && Holds(p / "snapshot", PaimonSnapshotName)) || Holds(p, PaimonSnapshotName))
    found.push_back(Format::kPaimon);
  if (found.size() == 1) return found.front();
  if (found.empty()) {
    return Status::InvalidArgument(
        fmt::format("{}: holds no table log: no Delta _delta_log/, no Iceberg metadata/*.metadata.json, no Paimon "
                    "snapshot/snapshot-N",
                    path));
  }
  std::string names;
  for (Format f : found) names += (names.empty() ? "" : " and ") + std::string(FormatName(f));
  return Status::InvalidArgument(fmt::format("{}: holds the logs of {}: say which with --format", path, names));
}

Status ImportLog(const ImportOptions& options, ImportSink* sink) {
  Format format = Format::kDelta;
  if (options.format) {
    format = *options.format;
  } else {
    COMMITLAB_ASSIGN_OR_RETURN(Format detected, DetectFormat(options.path));
    format = detected;
  }
  internal::Checker checker(sink);
  switch (format) {
    case Format::kDelta: return internal::ReadDeltaLog(options.path, &checker);
    case Format::kIceberg: return internal::ReadIcebergMetadata(options.path, options.memory_entries, &checker);
    case Format::kPaimon: return internal::ReadPaimonSnapshots(options.path, &checker);
  }
  return Status::InvalidArgument("unknown format");
}

}  // namespace commitlab::sim::import
