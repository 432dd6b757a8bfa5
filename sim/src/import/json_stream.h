// A JSON file whose root is an object, streamed with nlohmann's SAX parser: the top-level members
// are handed over one by one (the large arrays element by element), so a file of any size is
// read in the memory of its largest element. Each comes with the line it starts on.
#ifndef COMMITLAB_SIM_SRC_IMPORT_JSON_STREAM_H_
#define COMMITLAB_SIM_SRC_IMPORT_JSON_STREAM_H_

#include <cstddef>
#include <functional>
#include <set>
#include <string>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"

namespace commitlab::sim::import::internal {

struct StreamPlan {
  std::set<std::string, std::less<>> whole;     // top-level keys whose value is handed over whole
  std::set<std::string, std::less<>> elements;  // top-level arrays handed over element by element
  // Every other top-level member is handed over when it is a scalar and skipped otherwise.
};

// Called with (key, value, line). An error stops the pass and is returned.
using MemberFn = std::function<Status(const std::string& key, Json value, size_t line)>;

// InvalidArgument "FILE:LINE: not JSON: why" for text that is not JSON (or nests deeper than 256),
// and "FILE:1: <not_object>" when the root is not an object.
Status StreamObject(const std::string& file, const StreamPlan& plan, const std::string& not_object,
                    const MemberFn& member, const MemberFn& element);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_JSON_STREAM_H_
