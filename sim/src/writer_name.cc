#include "commitlab/sim/writer_name.h"

#include "commitlab/core/model.h"

namespace commitlab::sim {

std::string WriterName(int index) {
  std::string name = "job-";  // without fmt: a sweep names millions of short-lived writers
  if (index >= 0 && index < 26) return name += static_cast<char>('A' + index);
  AppendDecimal(int64_t{index} + 1, &name);
  return name;
}

}  // namespace commitlab::sim
