// Minimal JSON output helpers: snapshots, traces and reports are written with these.
#ifndef COMMITLAB_CORE_JSON_H_
#define COMMITLAB_CORE_JSON_H_

#include <string>
#include <string_view>

namespace commitlab {

// Returns s as a JSON string literal: quoted, with ", \ and control characters escaped.
std::string JsonQuote(std::string_view s);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_JSON_H_
