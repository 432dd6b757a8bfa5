// LiveWriter: a process's presence as a writer of a table directory, so that an orphan cleaner
// never removes a file that an in-flight commit can still publish.
//
// A writer writes its data files and manifest first and publishes the snapshot that references
// them last (S2 第 5 讲, "一次提交的五步"); until then its files look exactly like a crashed
// writer's leftovers. Paimon's OrphanFilesClean and Iceberg's DeleteOrphanFiles guard them with an
// age threshold (a day by default; Iceberg's RemoveOrphanFilesProcedure.validateInterval refuses
// anything under 24 hours). commitlab knows its writers, so it can do better:
//
//   <root>/lock/writer-<pid>-<n>.live   one per live writer, flock(LOCK_EX)ed for the writer's life;
//                                       its modification time is the writer's start.
//
// A writer only ever references files it wrote after it joined. So a file older than the start of
// every live writer, and older than the moment the cleaner looked, belongs to no in-flight commit:
// its writer had ended before the cleaner read the snapshots, and whatever it published is among
// them. FindLiveWriters gives that cut-off; files younger than it are kept whatever the cleaner's
// --older-than says. (A job that re-commits files an earlier incarnation wrote, as a Flink job
// restored from a checkpoint does, still needs the age threshold: its files predate its start.)
//
// A writer joins by creating its file under a temporary name, locking it, and renaming it into
// place, so a cleaner never sees a .live file that is not yet locked. The kernel releases the lock
// when the process dies however it dies (kill -9 too); the cleaner then removes the stale file.
#ifndef COMMITLAB_CORE_PAIMON_LIVE_WRITERS_H_
#define COMMITLAB_CORE_PAIMON_LIVE_WRITERS_H_

#include <cstdint>
#include <string>

#include "commitlab/core/status.h"

namespace commitlab {

class LiveWriter {
 public:
  // Creates <lock_dir> if needed and announces this process as a live writer until the returned
  // object is destroyed (or the process ends). IOError names the path and the OS error.
  static Result<LiveWriter> Join(const std::string& lock_dir);

  LiveWriter(LiveWriter&& other) noexcept;
  LiveWriter& operator=(LiveWriter&& other) noexcept;
  LiveWriter(const LiveWriter&) = delete;
  LiveWriter& operator=(const LiveWriter&) = delete;
  ~LiveWriter();  // removes the file and releases the lock

  const std::string& path() const { return path_; }

 private:
  LiveWriter(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  void Leave();

  int fd_ = -1;
  std::string path_;
};

struct LiveWriters {
  int64_t live = 0;           // writers holding their .live file now
  int64_t stale_removed = 0;  // .live files of writers that had ended, removed
  // Files modified strictly before this (microseconds since the epoch, on the clock file systems
  // stamp files with) belong to no in-flight commit: the moment of the look, or a second before the
  // earliest start of a live writer when that is earlier (the second covers a clock stepped back).
  int64_t cutoff_micros = 0;
};

// Looks at <lock_dir>'s .live files (a missing lock_dir means no writer ever joined). Never blocks
// a writer: a lock is tested with LOCK_NB and, when free, released at once. IOError when lock_dir
// cannot be listed.
Result<LiveWriters> FindLiveWriters(const std::string& lock_dir);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_PAIMON_LIVE_WRITERS_H_
