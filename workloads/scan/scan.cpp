// scan host side: exclusive prefix sum of ints in three launches
// (per-tile Blelloch scan, scan of the tile totals, add tile offsets).
#include "common.h"

namespace simt::workloads {
namespace {

struct ScanShape {
  int n;
  uint32_t threads;  // power of two; each CTA scans 2 * threads values
};

ScanShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {12000, 128};
    case Size::Medium: return {300000, 256};
    case Size::Large: return {3000000, 512};
  }
  return {0, 0};
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "scan");
  const ScanShape shape = shape_for(size);
  const uint32_t tile = 2 * shape.threads;
  const uint32_t tiles = (shape.n + tile - 1) / tile;

  // Values in [0, 99]: every prefix of up to 3e6 values fits in int32.
  Rng rng(0x5ca11);
  std::vector<int32_t> in(shape.n);
  for (auto& v : in) v = static_cast<int32_t>(rng.range(0, 99));
  const uint64_t d_in = dev.upload(in);
  const uint64_t d_out = dev.malloc(shape.n * sizeof(int32_t));
  const uint64_t d_totals = dev.malloc(tiles * sizeof(int32_t));

  runtime::KernelArgs blocks;
  blocks.push<uint64_t>(d_in).push<uint64_t>(d_out).push<uint64_t>(d_totals).push<int32_t>(shape.n);
  dev.launch(mod, "scan_blocks", {tiles, 1, 1}, {shape.threads, 1, 1}, blocks, tile * sizeof(int32_t));

  const uint32_t total_threads = 256;
  runtime::KernelArgs totals;
  totals.push<uint64_t>(d_totals).push<int32_t>(static_cast<int32_t>(tiles));
  dev.launch(mod, "scan_totals", {1, 1, 1}, {total_threads, 1, 1}, totals, 2 * total_threads * sizeof(int32_t));

  runtime::KernelArgs offsets;
  offsets.push<uint64_t>(d_out).push<uint64_t>(d_totals).push<int32_t>(shape.n);
  dev.launch(mod, "add_offsets", {tiles, 1, 1}, {shape.threads, 1, 1}, offsets);

  const auto got = dev.download<int32_t>(d_out, shape.n);
  std::vector<int32_t> want(shape.n);
  int32_t running = 0;
  for (int i = 0; i < shape.n; ++i) {
    want[i] = running;
    running += in[i];
  }
  return compare_exact(got, want, "prefix");
}

const bool registered = register_workload(
    {"scan", WorkloadClass::Convergent,
     "exclusive prefix sum of ints: per-tile Blelloch scan, scan of tile totals, add-back", &run});

}  // namespace
}  // namespace simt::workloads
