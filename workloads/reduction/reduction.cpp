// reduction host side: sum of ints in two launches of one kernel
// (per-CTA partial sums, then one CTA over the partials).
#include "common.h"

namespace simt::workloads {
namespace {

struct ReductionShape {
  int n;
  uint32_t blocks;   // first launch; each thread folds n / (2 * blocks * threads) pairs
  uint32_t threads;  // power of two, >= 64
};

ReductionShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {100000, 32, 128};
    case Size::Medium: return {5000000, 120, 256};
    case Size::Large: return {40000000, 240, 512};
  }
  return {0, 0, 0};
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "reduction");
  const ReductionShape shape = shape_for(size);

  // Values in [-1000, 1000]: the sum of up to 4e7 of them fits in int32.
  Rng rng(0x4ed0c7);
  std::vector<int32_t> in(shape.n);
  for (auto& v : in) v = static_cast<int32_t>(rng.range(-1000, 1000));
  const uint64_t d_in = dev.upload(in);
  const uint64_t d_partial = dev.malloc(shape.blocks * sizeof(int32_t));
  const uint64_t d_sum = dev.malloc(sizeof(int32_t));

  runtime::KernelArgs first;
  first.push<uint64_t>(d_in).push<int32_t>(shape.n).push<uint64_t>(d_partial);
  dev.launch(mod, "reduce_sum", {shape.blocks, 1, 1}, {shape.threads, 1, 1}, first,
             shape.threads * sizeof(int32_t));

  // The partials fit in one CTA's first pass; its width is the smallest
  // power of two >= 64 that covers them two per thread.
  uint32_t final_threads = 64;
  while (final_threads * 2 < shape.blocks) final_threads *= 2;
  runtime::KernelArgs second;
  second.push<uint64_t>(d_partial).push<int32_t>(static_cast<int32_t>(shape.blocks)).push<uint64_t>(d_sum);
  dev.launch(mod, "reduce_sum", {1, 1, 1}, {final_threads, 1, 1}, second, final_threads * sizeof(int32_t));

  const auto got = dev.download<int32_t>(d_sum, 1);
  int64_t total = 0;
  for (int32_t v : in) total += v;
  return compare_exact(got, std::vector<int32_t>{static_cast<int32_t>(total)}, "sum");
}

const bool registered = register_workload(
    {"reduction", WorkloadClass::Convergent,
     "sum of ints: shared-memory tree then warp shuffles, per-CTA partials then a final pass", &run});

}  // namespace
}  // namespace simt::workloads
