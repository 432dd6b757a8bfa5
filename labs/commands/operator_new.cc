// The CLI's global operator new, linked only with mimalloc (COMMITLAB_MALLOC in labs/CMakeLists.txt).
//
// mimalloc replaces operator new with its own mi_new, and in Debian's shared build mi_new asks a
// weak get_new_handler of its own, which always says "no handler": out of memory, it prints "out of
// memory in 'new'" and aborts (exit 134), so the CLI's handler (main.cc: a message and exit 2)
// never runs. An operator new in the executable comes before the library's: it allocates with
// malloc (mimalloc's all the same) and calls the installed new handler as the standard says
// ([new.delete.single]): retry while a handler exists, else throw std::bad_alloc. operator delete
// stays the library's: every block here comes from malloc, which mimalloc's delete frees.
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {

void* Allocate(std::size_t size) {
  if (size == 0) size = 1;
  for (;;) {
    if (void* p = std::malloc(size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* AllocateAligned(std::size_t size, std::align_val_t alignment) {
  const auto align = static_cast<std::size_t>(alignment);
  // aligned_alloc wants a size that is a multiple of the alignment.
  size = size == 0 ? align : (size + align - 1) / align * align;
  for (;;) {
    if (void* p = std::aligned_alloc(align, size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

template <typename F>
void* NoThrow(F allocate) noexcept {
  try {
    return allocate();
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

}  // namespace

void* operator new(std::size_t size) { return Allocate(size); }
void* operator new[](std::size_t size) { return Allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return NoThrow([size] { return Allocate(size); });
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return NoThrow([size] { return Allocate(size); });
}
void* operator new(std::size_t size, std::align_val_t alignment) { return AllocateAligned(size, alignment); }
void* operator new[](std::size_t size, std::align_val_t alignment) { return AllocateAligned(size, alignment); }
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return NoThrow([size, alignment] { return AllocateAligned(size, alignment); });
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return NoThrow([size, alignment] { return AllocateAligned(size, alignment); });
}
