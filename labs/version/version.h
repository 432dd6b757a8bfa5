// The build's identity: for --version and for anything that records which build produced it
// (trace headers), so that a run can be matched to the source it ran.
#ifndef COMMITLAB_LABS_VERSION_H_
#define COMMITLAB_LABS_VERSION_H_

#include <string_view>

namespace commitlab {

// The project version, from project(commitlab VERSION ...) in CMakeLists.txt, e.g. "0.1".
std::string_view CommitlabVersion();
// The short hash of the commit the build was made from, with "-dirty" when tracked files had
// uncommitted changes; "unknown" when the sources are not a git checkout.
std::string_view CommitlabGitCommit();

}  // namespace commitlab

#endif  // COMMITLAB_LABS_VERSION_H_
