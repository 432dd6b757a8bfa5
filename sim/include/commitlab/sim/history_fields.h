// Reading members of a history line (docs/history.md) that may be missing or of another type than
// the format gives them (a hand-edited or cut file): the readers of a history (timeline, explain,
// the stepper) take a default instead of throwing.
#ifndef COMMITLAB_SIM_HISTORY_FIELDS_H_
#define COMMITLAB_SIM_HISTORY_FIELDS_H_

#include <cstdint>
#include <string>

#include "commitlab/sim/history.h"

namespace commitlab::sim {

// e[key] when it is a string, else "".
std::string StringField(const Json& e, const char* key);
// e[key] when it is an integer, else `otherwise`.
int64_t IntField(const Json& e, const char* key, int64_t otherwise = -1);
// A data file's name cut to what tells files apart: data-bf08119f…-0.parquet (a directory kept).
std::string ShortFileName(const std::string& name);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_HISTORY_FIELDS_H_
