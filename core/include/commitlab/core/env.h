// Env: every effect the commit engine has on the world goes through here (clock, sleep, the random
// stream, the boundaries of storage operations, and named fault points). RealEnv runs on OS threads
// and the wall clock; SimEnv runs writers on fibers in virtual time and yields to its scheduler at
// every call. The engine never knows which one it has.
//
// Implementations must be safe to call from several writer threads at once.
#ifndef COMMITLAB_CORE_ENV_H_
#define COMMITLAB_CORE_ENV_H_

#include <cstdint>
#include <string_view>

#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"

namespace commitlab {

// kWriteData is a writer writing a data file before it commits (not part of the commit itself):
// the time it takes is what leaves gaps between one writer's commit attempts. kCheckData asks
// whether a data file exists (a stat or HEAD), as a restarted Paimon job does for the files of
// the checkpoint it replays.
enum class StorageOp { kReadLatest, kReadSnapshot, kWriteManifest, kPublish, kWriteData, kCheckData };
inline constexpr int kStorageOpCount = 6;
std::string_view StorageOpName(StorageOp op);  // "read-latest", "read-snapshot", ..., "check-data"

// Names of the fault points in the engine. A fault plan selects them by these strings.
namespace fault {
inline constexpr std::string_view kReadLatestBefore = "read-latest.before";
inline constexpr std::string_view kManifestBefore = "manifest.before";
// publish.before: error leaves the outcome unknown to the writer; LostRace (Status::LostRace) is
// the store refusing the atomic step as if another writer had won it.
inline constexpr std::string_view kPublishBefore = "publish.before";
inline constexpr std::string_view kPublishAfter = "publish.after";  // error: took effect, caller unsure
// A catalog on a real server (core/catalogs) around the statement that swaps the pointer. An error
// at catalog.before drops the connection before the statement is sent (nothing happened); at
// catalog.after, once it ran, before its answer arrives (the swap happened; the writer is not
// told). No scenario table has such a catalog yet.
inline constexpr std::string_view kCatalogBefore = "catalog.before";
inline constexpr std::string_view kCatalogAfter = "catalog.after";
}  // namespace fault

class Env {
 public:
  virtual ~Env() = default;

  virtual int64_t NowMicros() = 0;
  virtual void SleepMicros(int64_t micros) = 0;
  // The calling writer's random stream.
  virtual Rng& rng() = 0;
  // Called just before a storage operation takes effect (the request hop) and just after it (the
  // response hop). A simulator charges latency and lets other writers run at both.
  virtual void BeginStorageOp(StorageOp op) = 0;
  virtual void EndStorageOp(StorageOp op) = 0;
  // A named fault point: OK, or the failure a fault plan injects here (IOError "simulated ...",
  // Crashed). A delay effect sleeps and returns OK.
  virtual Status FaultPoint(std::string_view name) = 0;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_ENV_H_
