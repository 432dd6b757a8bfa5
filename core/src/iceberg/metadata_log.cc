#include "commitlab/core/iceberg/metadata_log.h"

#include <algorithm>
#include <utility>

#include "commitlab/core/check.h"

namespace commitlab::iceberg {

MetadataLog::MetadataLog(const std::vector<std::string>& oldest_first) {
  for (const std::string& location : oldest_first) Append(location);
}

MetadataLog::MetadataLog(const std::vector<Entry>& oldest_first) {
  for (const Entry& e : oldest_first) Append(e.location, e.timestamp_ms);
}

void MetadataLog::Append(std::string location, int64_t timestamp_ms) {
  newest_ = std::make_shared<const Node>(Node{std::move(location), timestamp_ms, std::move(newest_)});
  ++chain_;
  size_ = std::min(chain_, kPreviousVersionsMax);
  if (chain_ <= 2 * kPreviousVersionsMax) return;
  // Entries past the cap are unreachable through this log but still held by its nodes (and
  // perhaps shared with older versions): rebuild a chain of just the live ones, one string copy
  // per append on average, so a chain never outgrows twice the cap.
  const std::vector<Entry> kept = TimedEntries();
  newest_.reset();
  chain_ = 0;
  for (const Entry& e : kept) {
    newest_ = std::make_shared<const Node>(Node{e.location, e.timestamp_ms, std::move(newest_)});
    ++chain_;
  }
  COMMITLAB_CHECK(chain_ == size_ && size_ == kPreviousVersionsMax, "a rebuilt log holds just the entries it keeps");
}

const std::string& MetadataLog::operator[](size_t i) const {
  COMMITLAB_CHECK(i < size_, "a metadata log entry past its end");
  const Node* n = newest_.get();
  for (size_t steps = size_ - 1 - i; steps > 0; --steps) n = n->older.get();
  COMMITLAB_DCHECK(n != nullptr, "a log's chain reaches back past its oldest kept entry");
  return n->location;
}

std::vector<std::string> MetadataLog::Entries() const {
  std::vector<std::string> out(size_);
  const Node* n = newest_.get();
  for (size_t i = size_; i > 0; --i, n = n->older.get()) {
    COMMITLAB_DCHECK(n != nullptr, "a log's chain reaches back past its oldest kept entry");
    out[i - 1] = n->location;
  }
  return out;
}

std::vector<MetadataLog::Entry> MetadataLog::TimedEntries() const {
  std::vector<Entry> out(size_);
  const Node* n = newest_.get();
  for (size_t i = size_; i > 0; --i, n = n->older.get()) {
    COMMITLAB_DCHECK(n != nullptr, "a log's chain reaches back past its oldest kept entry");
    out[i - 1] = {n->location, n->timestamp_ms};
  }
  return out;
}

}  // namespace commitlab::iceberg
