# Warning flags every target links PRIVATE; -Werror comes from the presets, not from here.
add_library(commitlab_warnings INTERFACE)
target_compile_options(commitlab_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  # An implicit narrowing or change of sign is spelled out as a cast where it is meant.
  -Wconversion -Wsign-conversion
  # GCC 12 reports std::string concatenation at -O2 as overlapping memcpy (GCC PR105651).
  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>
  $<$<CXX_COMPILER_ID:Clang>:-Wthread-safety>)
