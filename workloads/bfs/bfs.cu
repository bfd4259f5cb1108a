// Level-synchronous breadth-first search over a graph in CSR form.
// One launch per level: every node whose distance equals `level` is on the
// frontier and relaxes its neighbours. Degrees are heavy-tailed, so the
// neighbour loop runs for very different trip counts inside a warp.
// Several frontier nodes may discover the same neighbour in one level; they
// all write the same value (level + 1), so the result does not depend on order.

extern "C" __global__ void bfs_level(const int* __restrict__ row_offsets,
                                     const int* __restrict__ columns,
                                     int* dist, int num_nodes, int level,
                                     int* frontier_grew) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  bool discovered = false;
  if (v < num_nodes && dist[v] == level) {
    int begin = row_offsets[v];
    int end = row_offsets[v + 1];
    for (int e = begin; e < end; ++e) {
      int u = columns[e];
      if (dist[u] < 0) {
        dist[u] = level + 1;
        discovered = true;
      }
    }
  }
  // One store per block instead of one per discovering thread (a block-wide
  // vote, so it does not depend on how threads are grouped into warps).
  if (__syncthreads_or(discovered) && threadIdx.x == 0) *frontier_grew = 1;
}
