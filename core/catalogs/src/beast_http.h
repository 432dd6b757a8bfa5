// Boost.Beast's HTTP headers, for the REST catalog's client and server. GCC 12 at -O2 with
// -fsanitize=address warns that Beast's own parser reads a boost::optional before setting it
// (basic_parser.hpp, do_field): a false positive inside a system header, made an error by the
// sanitizer presets. Silenced for Beast's headers only; clang has no such warning group.
#ifndef COMMITLAB_CATALOGS_SRC_BEAST_HTTP_H_
#define COMMITLAB_CATALOGS_SRC_BEAST_HTTP_H_

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // COMMITLAB_CATALOGS_SRC_BEAST_HTTP_H_
