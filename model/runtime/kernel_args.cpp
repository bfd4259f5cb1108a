#include "runtime/device.h"

#include "util/error.h"

namespace simt::runtime {

KernelArgs& KernelArgs::push_bytes(const void* p, size_t n, size_t align) {
  if (align == 0) align = 1;
  size_t off = (bytes_.size() + align - 1) / align * align;
  bytes_.resize(off + n, 0);
  std::memcpy(bytes_.data() + off, p, n);
  offsets_.push_back(off);
  sizes_.push_back(n);
  return *this;
}

void DeviceOptions::validate() const {
  if (warp_size < 4 || warp_size > 64)
    throw input_error("option warp-size: " + std::to_string(warp_size) +
                      " is out of range (4 to 64)");
}

}  // namespace simt::runtime
