// S2 第 5 讲's writer names (job-A, job-B, ...), shared by the race and the sweeps.
#ifndef COMMITLAB_SIM_WRITER_NAME_H_
#define COMMITLAB_SIM_WRITER_NAME_H_

#include <string>

namespace commitlab::sim {

// job-A, job-B, ..., job-Z, then job-27, job-28, ...
std::string WriterName(int index);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_WRITER_NAME_H_
