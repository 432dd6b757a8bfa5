// TableState: the live data files of a table at one snapshot, indexed partition -> bucket ->
// level -> file name, so that applying or checking a commit touches only the buckets it changes.
#ifndef COMMITLAB_CORE_TABLE_STATE_H_
#define COMMITLAB_CORE_TABLE_STATE_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "commitlab/core/model.h"
#include "commitlab/core/status.h"

namespace commitlab {

class TableState {
 public:
  // level -> file name -> file
  using BucketFiles = std::map<int32_t, std::map<std::string, DataFile>>;

  int64_t snapshot_id() const { return snapshot_id_; }
  int64_t total_records() const { return total_records_; }
  size_t live_file_count() const { return live_files_; }

  // Applies a snapshot's changes. Fails (and changes nothing) on a DELETE of a file that is not
  // live or an ADD of one that is: a checker uses this to find a broken chain.
  Status Apply(const Snapshot& s);
  // Adds a file without a snapshot (benchmarks building a large table).
  void AddLive(const DataFile& f);

  // The files of one bucket, or nullptr when it holds none.
  const BucketFiles* Bucket(const std::string& partition, int32_t bucket) const;
  bool IsLive(const DataFile& f) const;
  // All live files in (partition, bucket, level, name) order.
  std::vector<DataFile> LiveFiles() const;
  // The total_buckets of the live files of `partition` that have one, in the order their
  // snapshots added them (the order Paimon reads manifests in).
  std::vector<int32_t> TotalBucketsInCommitOrder(const std::string& partition) const;

 private:
  void AddLive(const DataFile& f, int64_t snapshot_id);
  // Counts the files in the index, for a check of live_files_.
  size_t CountLiveFiles() const;

  std::map<std::string, std::map<int32_t, BucketFiles>> partitions_;
  // partition -> (snapshot that added it, bucket, level, name) -> total_buckets, for files that
  // carry a bucket count.
  using AddedFile = std::tuple<int64_t, int32_t, int32_t, std::string>;
  std::map<std::string, std::map<AddedFile, int32_t>> total_buckets_;
  std::map<std::tuple<std::string, int32_t, int32_t, std::string>, int64_t> added_in_;  // by identity
  int64_t snapshot_id_ = 0;
  int64_t total_records_ = 0;
  size_t live_files_ = 0;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_TABLE_STATE_H_
