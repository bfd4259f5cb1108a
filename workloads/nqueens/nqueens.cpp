// Host side of nqueens: enumerates every valid placement of the first three
// queens, lets one thread count the completions of each, and checks the
// per-prefix counts against a CPU recursion, the per-block totals against
// the per-prefix counts, and the grand total against the known N-queens
// numbers.
#include <numeric>

#include "common.h"

namespace simt::workloads {
namespace {

// Number of solutions of the N-queens problem, N = 0..16.
constexpr uint64_t kKnownSolutions[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};

// Board state before a row: occupied columns and both diagonal masks, as
// seen from that row (the kernel uses the same encoding).
struct State {
  uint32_t cols, diag_l, diag_r;
};

void enumerate_prefixes(int n, int rows_left, State s, std::vector<State>& out) {
  if (rows_left == 0) {
    out.push_back(s);
    return;
  }
  const uint32_t all = (1u << n) - 1u;
  uint32_t free_bits = all & ~(s.cols | s.diag_l | s.diag_r);
  while (free_bits) {
    uint32_t bit = free_bits & (0u - free_bits);
    free_bits ^= bit;
    enumerate_prefixes(n, rows_left - 1, {s.cols | bit, ((s.diag_l | bit) << 1) & all, (s.diag_r | bit) >> 1}, out);
  }
}

uint32_t count_completions(int n, int row, State s) {
  const uint32_t all = (1u << n) - 1u;
  uint32_t free_bits = all & ~(s.cols | s.diag_l | s.diag_r);
  if (row == n - 1) return static_cast<uint32_t>(__builtin_popcount(free_bits));
  uint32_t total = 0;
  while (free_bits) {
    uint32_t bit = free_bits & (0u - free_bits);
    free_bits ^= bit;
    total += count_completions(n, row + 1, {s.cols | bit, ((s.diag_l | bit) << 1) & all, (s.diag_r | bit) >> 1});
  }
  return total;
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "nqueens");
  const int n = size == Size::Small ? 10 : size == Size::Medium ? 12 : 13;
  const int start_row = 3;
  std::vector<State> prefixes;
  enumerate_prefixes(n, start_row, {0, 0, 0}, prefixes);
  const int num = static_cast<int>(prefixes.size());

  std::vector<uint32_t> cols(num), diag_l(num), diag_r(num);
  for (int i = 0; i < num; ++i) {
    cols[i] = prefixes[i].cols;
    diag_l[i] = prefixes[i].diag_l;
    diag_r[i] = prefixes[i].diag_r;
  }
  const uint32_t block = 64;  // a multiple of 32: the block sum shuffles full warps
  const uint32_t grid = (num + block - 1) / block;
  uint64_t d_cols = dev.upload(cols), d_dl = dev.upload(diag_l), d_dr = dev.upload(diag_r);
  uint64_t d_counts = dev.malloc(num * sizeof(uint32_t));
  uint64_t d_totals = dev.malloc(grid * sizeof(uint32_t));
  runtime::KernelArgs args;
  args.push<uint64_t>(d_cols).push<uint64_t>(d_dl).push<uint64_t>(d_dr).push<int32_t>(num);
  args.push<int32_t>(n).push<int32_t>(start_row).push<uint64_t>(d_counts).push<uint64_t>(d_totals);
  dev.launch(mod, "nqueens_count", {grid, 1, 1}, {block, 1, 1}, args);

  auto got = dev.download<uint32_t>(d_counts, num);
  std::vector<uint32_t> want(num);
  for (int i = 0; i < num; ++i) want[i] = count_completions(n, start_row, prefixes[i]);
  Result r = compare_exact(got, want, "counts");
  if (!r.ok) return r;

  // Block totals must be the sums of their prefixes' counts.
  auto totals = dev.download<uint32_t>(d_totals, grid);
  std::vector<uint32_t> want_totals(grid, 0);
  for (int i = 0; i < num; ++i) want_totals[i / block] += want[i];
  Result rt = compare_exact(totals, want_totals, "block_totals");
  if (!rt.ok) return rt;

  uint64_t total = std::accumulate(totals.begin(), totals.end(), uint64_t{0});
  if (total != kKnownSolutions[n])
    return {false, "nqueens: " + std::to_string(total) + " solutions for N=" + std::to_string(n) + ", expected " +
                       std::to_string(kKnownSolutions[n])};
  r.message += "; " + std::to_string(total) + " solutions for N=" + std::to_string(n) + " from " +
               std::to_string(num) + " prefixes";
  return r;
}

const bool registered = register_workload(
    {"nqueens", WorkloadClass::Divergent,
     "N-queens backtracking, one thread per 3-queen prefix, explicit bit-mask stack", &run});

}  // namespace
}  // namespace simt::workloads
