// Snapshot and manifest files as JSON text, in the shape of Paimon's Snapshot.toJson() (version 3,
// camelCase field names). A snapshot file does not hold its changes: they live in the manifest it
// names (deltaManifestList), as in Paimon.
#ifndef COMMITLAB_CORE_SNAPSHOT_CODEC_H_
#define COMMITLAB_CORE_SNAPSHOT_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/model.h"
#include "commitlab/core/status.h"

namespace commitlab {

inline constexpr int64_t kSnapshotVersion = 3;

// Pretty JSON with the fields version, id, parentId, commitUser, commitIdentifier, commitKind,
// timeMillis, totalRecordCount, deltaRecordCount, deltaManifestList. `s.changes` is not written.
std::string EncodeSnapshot(const Snapshot& s);

// The inverse of EncodeSnapshot; the result has empty `changes`. Unknown fields are ignored (as
// Paimon's @JsonIgnoreProperties does). Errors are Corruption "<path>: <why>", e.g.
// `snapshot/snapshot-3: field "commitKind" has unknown value "FOO"`. The caller checks that the
// id matches the file name.
Result<Snapshot> DecodeSnapshot(std::string_view json, std::string_view path);

// A JSON array, one entry a line: kind, partition, bucket, level, fileName, minKey, maxKey,
// rowCount.
std::string EncodeManifest(const std::vector<FileChange>& changes);

// The inverse of EncodeManifest. Errors are Corruption "<path>: entry <i>: <why>" (or
// "<path>: <why>" for the document as a whole).
Result<std::vector<FileChange>> DecodeManifest(std::string_view json, std::string_view path);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_SNAPSHOT_CODEC_H_
