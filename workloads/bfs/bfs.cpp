// Host side of bfs: builds a random directed graph with heavy-tailed
// out-degrees in CSR form, runs one bfs_level launch per BFS level until no
// new node is discovered, and checks every distance against a CPU queue BFS.
#include <algorithm>
#include <cmath>
#include <deque>

#include "common.h"

namespace simt::workloads {
namespace {

struct Csr {
  std::vector<int32_t> row_offsets;
  std::vector<int32_t> columns;
};

// Out-degrees follow a capped Pareto law (a few hubs, many leaves). Half of
// the edges stay near their source index, which stretches the graph so BFS
// needs a fair number of levels; the rest go anywhere.
Csr make_graph(int n, uint64_t seed) {
  Rng rng(seed);
  Csr g;
  g.row_offsets.resize(n + 1);
  int max_degree = std::max(8, n / 16);
  for (int v = 0; v < n; ++v) {
    double u = 1.0 - rng.unit_double();  // (0, 1]
    int degree = static_cast<int>(std::floor(std::pow(u, -1.0 / 1.2)));
    degree = std::min(std::max(degree, 1), max_degree);
    g.row_offsets[v] = static_cast<int32_t>(g.columns.size());
    for (int k = 0; k < degree; ++k) {
      int64_t dst;
      if (rng.next() & 1) {
        dst = v + rng.range(-32, 32);
        dst = std::min<int64_t>(std::max<int64_t>(dst, 0), n - 1);
      } else {
        dst = rng.range(0, n - 1);
      }
      g.columns.push_back(static_cast<int32_t>(dst));
    }
  }
  g.row_offsets[n] = static_cast<int32_t>(g.columns.size());
  return g;
}

std::vector<int32_t> reference_bfs(const Csr& g, int n, int source) {
  std::vector<int32_t> dist(n, -1);
  std::deque<int> queue{source};
  dist[source] = 0;
  while (!queue.empty()) {
    int v = queue.front();
    queue.pop_front();
    for (int e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e) {
      int u = g.columns[e];
      if (dist[u] < 0) {
        dist[u] = dist[v] + 1;
        queue.push_back(u);
      }
    }
  }
  return dist;
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "bfs");
  const int n = size == Size::Small ? 4096 : size == Size::Medium ? 49152 : 458752;
  const int source = 0;
  Csr g = make_graph(n, 0xbf5u + n);

  std::vector<int32_t> dist(n, -1);
  dist[source] = 0;
  uint64_t d_rows = dev.upload(g.row_offsets);
  uint64_t d_cols = dev.upload(g.columns);
  uint64_t d_dist = dev.upload(dist);
  uint64_t d_grew = dev.malloc(sizeof(int32_t));

  const uint32_t block = 256;
  const uint32_t grid = (n + block - 1) / block;
  // One launch per level of the CPU reference, up to its deepest (progress lines show k/N).
  const std::vector<int32_t> want = reference_bfs(g, n, source);
  dev.progress().set_launch_count(static_cast<uint64_t>(*std::max_element(want.begin(), want.end())) + 1);
  int level = 0;
  for (;; ++level) {
    if (level > n) return {false, "bfs: more levels than nodes (kernel never stops discovering)"};
    dev.memset(d_grew, 0, sizeof(int32_t));
    runtime::KernelArgs args;
    args.push<uint64_t>(d_rows).push<uint64_t>(d_cols).push<uint64_t>(d_dist).push<int32_t>(n).push<int32_t>(level).push<uint64_t>(d_grew);
    dev.launch(mod, "bfs_level", {grid, 1, 1}, {block, 1, 1}, args);
    if (dev.download<int32_t>(d_grew, 1)[0] == 0) break;
  }

  auto got = dev.download<int32_t>(d_dist, n);
  Result r = compare_exact(got, want, "dist");
  int reached = static_cast<int>(std::count_if(want.begin(), want.end(), [](int32_t d) { return d >= 0; }));
  r.message += " (" + std::to_string(level + 1) + " launches, " + std::to_string(reached) + " of " +
               std::to_string(n) + " nodes reached, " + std::to_string(g.columns.size()) + " edges)";
  return r;
}

const bool registered = register_workload(
    {"bfs", WorkloadClass::Divergent,
     "level-synchronous BFS on a heavy-tailed random graph (CSR), one launch per level", &run});

}  // namespace
}  // namespace simt::workloads
