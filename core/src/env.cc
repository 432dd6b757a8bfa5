#include "commitlab/core/env.h"

namespace commitlab {

std::string_view StorageOpName(StorageOp op) {
  switch (op) {
    case StorageOp::kReadLatest: return "read-latest";
    case StorageOp::kReadSnapshot: return "read-snapshot";
    case StorageOp::kWriteManifest: return "write-manifest";
    case StorageOp::kPublish: return "publish";
    case StorageOp::kWriteData: return "write-data";
    case StorageOp::kCheckData: return "check-data";
  }
  return "?";
}

}  // namespace commitlab
