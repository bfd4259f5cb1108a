// radix_sort host side: LSD radix sort of uint32 keys, 4 bits a pass, eight
// passes of three launches each (tile histograms, offset scan, stable scatter).
#include <algorithm>
#include <utility>

#include "common.h"

namespace simt::workloads {
namespace {

struct RadixShape {
  int n;
  uint32_t threads;  // keys per tile (one per thread), multiple of 32
};

RadixShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {500, 64};
    case Size::Medium: return {12000, 256};
    case Size::Large: return {100000, 256};
  }
  return {0, 0};
}

constexpr int kRadixBits = 4;
constexpr int kRadix = 1 << kRadixBits;

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "radix_sort");
  const RadixShape s = shape_for(size);
  const uint32_t tiles = (s.n + s.threads - 1) / s.threads;

  // Full-range keys plus a band of repeats, so equal digits and equal keys
  // are common and the passes must be stable to come out sorted.
  Rng rng(0x4ad1c5);
  std::vector<uint32_t> keys(s.n);
  for (auto& k : keys)
    k = (rng.next() & 3) == 0 ? static_cast<uint32_t>(rng.range(0, 63)) * 0x01010101u
                              : static_cast<uint32_t>(rng.next());
  uint64_t d_src = dev.upload(keys);
  uint64_t d_dst = dev.malloc(s.n * sizeof(uint32_t));
  const uint64_t d_counts = dev.malloc(static_cast<uint64_t>(kRadix) * tiles * sizeof(uint32_t));
  const uint32_t scan_threads = 512;

  dev.progress().set_launch_count(3 * 32 / kRadixBits);  // histogram, scan, scatter per digit
  for (int shift = 0; shift < 32; shift += kRadixBits) {
    runtime::KernelArgs hist;
    hist.push<uint64_t>(d_src).push<uint64_t>(d_counts).push<int32_t>(s.n).push<int32_t>(shift);
    dev.launch(mod, "radix_histogram", {tiles, 1, 1}, {s.threads, 1, 1}, hist);

    runtime::KernelArgs scan;
    scan.push<uint64_t>(d_counts).push<int32_t>(static_cast<int32_t>(kRadix * tiles));
    dev.launch(mod, "radix_scan", {1, 1, 1}, {scan_threads, 1, 1}, scan);

    runtime::KernelArgs scatter;
    scatter.push<uint64_t>(d_src).push<uint64_t>(d_dst).push<uint64_t>(d_counts).push<int32_t>(s.n)
        .push<int32_t>(shift);
    dev.launch(mod, "radix_scatter", {tiles, 1, 1}, {s.threads, 1, 1}, scatter, s.threads * sizeof(uint32_t));
    std::swap(d_src, d_dst);
  }
  const auto got = dev.download<uint32_t>(d_src, s.n);

  std::vector<uint32_t> want = keys;
  std::sort(want.begin(), want.end());
  return compare_exact(got, want, "sorted");
}

const bool registered = register_workload(
    {"radix_sort", WorkloadClass::Convergent,
     "LSD radix sort of uint32 keys, 4-bit digits: tile histograms, offset scan, ballot-ranked stable scatter",
     &run});

}  // namespace
}  // namespace simt::workloads
