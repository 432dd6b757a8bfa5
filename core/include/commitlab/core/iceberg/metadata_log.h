// MetadataLog: a table's earlier metadata files, oldest first, at most kPreviousVersionsMax of
// them (TableMetadata.Builder drops the oldest entries past write.metadata.previous-versions-max).
//
// Persistent: each version's log is its parent's plus one location, so it shares its parent's
// entries, and building a version (which every commit attempt does) adds one entry rather than
// copying a hundred strings.
#ifndef COMMITLAB_CORE_ICEBERG_METADATA_LOG_H_
#define COMMITLAB_CORE_ICEBERG_METADATA_LOG_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/check.h"

namespace commitlab::iceberg {

// write.metadata.previous-versions-max: how many earlier metadata files the log keeps.
inline constexpr size_t kPreviousVersionsMax = 100;

class MetadataLog {
 public:
  struct Entry {
    std::string location;
    int64_t timestamp_ms = 0;
    bool operator==(const Entry&) const = default;
  };

  MetadataLog() = default;
  // The newest kPreviousVersionsMax of `oldest_first`.
  explicit MetadataLog(const std::vector<std::string>& oldest_first);
  explicit MetadataLog(const std::vector<Entry>& oldest_first);

  // Adds the newest entry, dropping the oldest one past kPreviousVersionsMax. `timestamp_ms` is the
  // last-updated-ms of the version that file held (TableMetadata.MetadataLogEntry).
  void Append(std::string location, int64_t timestamp_ms = 0);

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // REQUIRES for these three: !empty(), and i < size().
  const std::string& back() const {  // the newest
    COMMITLAB_CHECK(newest_ != nullptr, "the newest entry of an empty metadata log");
    return newest_->location;
  }
  const std::string& front() const { return (*this)[0]; }  // the oldest
  const std::string& operator[](size_t i) const;           // oldest first; O(size - i)
  std::vector<std::string> Entries() const;                // oldest first
  std::vector<Entry> TimedEntries() const;                 // oldest first

 private:
  struct Node {
    std::string location;
    int64_t timestamp_ms;
    std::shared_ptr<const Node> older;
  };
  std::shared_ptr<const Node> newest_;
  size_t size_ = 0;   // the entries it holds: min(chain_, kPreviousVersionsMax)
  size_t chain_ = 0;  // the nodes reachable from newest_; cut back to size_ once past twice that
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_METADATA_LOG_H_
