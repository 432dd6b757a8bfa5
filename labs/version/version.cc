#include "version/version.h"

#include "commitlab_build_id.h"  // generated on every build by labs/version/version.cmake

namespace commitlab {

std::string_view CommitlabVersion() { return COMMITLAB_VERSION; }
std::string_view CommitlabGitCommit() { return COMMITLAB_GIT_COMMIT; }

}  // namespace commitlab
