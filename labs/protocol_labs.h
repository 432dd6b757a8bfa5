// The Iceberg and Delta labs: narrated runs of the issue-5 experiments on the real engines.
// `commitlab lab iceberg|delta` dispatches here.
#ifndef COMMITLAB_LABS_PROTOCOL_LABS_H_
#define COMMITLAB_LABS_PROTOCOL_LABS_H_

#include <string>
#include <vector>

namespace commitlab::cli {

int RunIcebergLab(const std::vector<std::string>& args);  // lab_iceberg.cc
int RunDeltaLab(const std::vector<std::string>& args);    // lab_delta.cc

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_PROTOCOL_LABS_H_
