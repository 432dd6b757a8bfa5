# Warning flags every target links PRIVATE; -Werror comes from the presets, not from here.
add_library(commitlab_warnings INTERFACE)
target_compile_options(commitlab_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  $<$<CXX_COMPILER_ID:Clang>:-Wthread-safety>)
