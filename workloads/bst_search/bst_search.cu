// Batched lookups in an unbalanced binary search tree stored as three arrays
// (key, left child, right child; -1 = no child), nodes numbered in
// breadth-first order so the top of the tree is a contiguous prefix. Each
// block caches that prefix in shared memory; deeper nodes come from global
// memory. Threads leave their walk at different depths (hit or fall off).

#define CACHED_NODES 512

extern "C" __global__ void bst_lookup(const int* __restrict__ keys,
                                      const int* __restrict__ left,
                                      const int* __restrict__ right,
                                      int num_nodes,
                                      const int* __restrict__ queries,
                                      int num_queries, int* __restrict__ result) {
  __shared__ int s_key[CACHED_NODES];
  __shared__ int s_left[CACHED_NODES];
  __shared__ int s_right[CACHED_NODES];
  int cached = num_nodes < CACHED_NODES ? num_nodes : CACHED_NODES;
  for (int i = threadIdx.x; i < cached; i += blockDim.x) {
    s_key[i] = keys[i];
    s_left[i] = left[i];
    s_right[i] = right[i];
  }
  __syncthreads();

  int stride = gridDim.x * blockDim.x;
  for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < num_queries; q += stride) {
    int key = queries[q];
    int node = num_nodes > 0 ? 0 : -1;
    int found = -1;
    while (node >= 0) {
      int k, l, r;
      if (node < cached) {
        k = s_key[node];
        l = s_left[node];
        r = s_right[node];
      } else {
        k = keys[node];
        l = left[node];
        r = right[node];
      }
      if (key == k) {
        found = node;
        break;
      }
      node = key < k ? l : r;
    }
    result[q] = found;
  }
}
