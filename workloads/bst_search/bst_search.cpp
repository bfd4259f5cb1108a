// Host side of bst_search: inserts random keys into an unbalanced binary
// search tree, renumbers its nodes breadth-first (so the kernel can cache the
// top in shared memory), then looks up a mix of present and absent keys and
// checks each returned node index (-1 for a miss) against a CPU walk.
#include <algorithm>
#include <deque>

#include "common.h"

namespace simt::workloads {
namespace {

struct Tree {
  std::vector<int32_t> key, left, right;
};

// Builds the tree by plain insertion in random order, then renumbers the
// nodes breadth-first from the root.
Tree make_tree(int n, Rng& rng) {
  std::vector<int32_t> keys;
  keys.reserve(n);
  std::vector<bool> used(static_cast<size_t>(n) * 8, false);
  while (static_cast<int>(keys.size()) < n) {  // distinct keys in [0, 8n)
    int32_t k = static_cast<int32_t>(rng.range(0, static_cast<int64_t>(n) * 8 - 1));
    if (!used[k]) {
      used[k] = true;
      keys.push_back(k);
    }
  }
  Tree t;
  t.key.reserve(n);
  t.left.assign(n, -1);
  t.right.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    t.key.push_back(keys[i]);
    if (i == 0) continue;
    int node = 0;
    for (;;) {
      std::vector<int32_t>& child = keys[i] < t.key[node] ? t.left : t.right;
      if (child[node] < 0) {
        child[node] = i;
        break;
      }
      node = child[node];
    }
  }
  // Breadth-first renumbering.
  std::vector<int32_t> order, new_id(n, -1);
  order.reserve(n);
  std::deque<int32_t> queue{0};
  while (!queue.empty()) {
    int32_t v = queue.front();
    queue.pop_front();
    new_id[v] = static_cast<int32_t>(order.size());
    order.push_back(v);
    if (t.left[v] >= 0) queue.push_back(t.left[v]);
    if (t.right[v] >= 0) queue.push_back(t.right[v]);
  }
  Tree bfs;
  bfs.key.resize(n);
  bfs.left.resize(n);
  bfs.right.resize(n);
  for (int i = 0; i < n; ++i) {
    int32_t v = order[i];
    bfs.key[i] = t.key[v];
    bfs.left[i] = t.left[v] < 0 ? -1 : new_id[t.left[v]];
    bfs.right[i] = t.right[v] < 0 ? -1 : new_id[t.right[v]];
  }
  return bfs;
}

int32_t reference_lookup(const Tree& t, int32_t key) {
  int32_t node = t.key.empty() ? -1 : 0;
  while (node >= 0) {
    if (key == t.key[node]) return node;
    node = key < t.key[node] ? t.left[node] : t.right[node];
  }
  return -1;
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "bst_search");
  const int n = size == Size::Small ? 4096 : size == Size::Medium ? 65536 : 1 << 20;
  const int num_queries = size == Size::Small ? 4096 : size == Size::Medium ? 131072 : 524288;
  Rng rng(0xb57u + n);
  Tree t = make_tree(n, rng);

  // Half the queries hit a stored key, half are (most likely) misses.
  std::vector<int32_t> queries(num_queries);
  for (auto& q : queries)
    q = (rng.next() & 1) ? t.key[rng.range(0, n - 1)] : static_cast<int32_t>(rng.range(0, static_cast<int64_t>(n) * 8 - 1));

  uint64_t d_key = dev.upload(t.key), d_left = dev.upload(t.left), d_right = dev.upload(t.right);
  uint64_t d_queries = dev.upload(queries);
  uint64_t d_result = dev.malloc(num_queries * sizeof(int32_t));

  // A fixed grid smaller than the query count: threads loop over queries.
  const uint32_t block = 128;
  const uint32_t grid = std::min<uint32_t>(64, (num_queries + block - 1) / block);
  runtime::KernelArgs args;
  args.push<uint64_t>(d_key).push<uint64_t>(d_left).push<uint64_t>(d_right).push<int32_t>(n);
  args.push<uint64_t>(d_queries).push<int32_t>(num_queries).push<uint64_t>(d_result);
  dev.launch(mod, "bst_lookup", {grid, 1, 1}, {block, 1, 1}, args);

  auto got = dev.download<int32_t>(d_result, num_queries);
  std::vector<int32_t> want(num_queries);
  for (int i = 0; i < num_queries; ++i) want[i] = reference_lookup(t, queries[i]);
  return compare_exact(got, want, "result");
}

const bool registered = register_workload(
    {"bst_search", WorkloadClass::Divergent,
     "lookups in an unbalanced binary search tree (top cached in shared memory), hit or miss", &run});

}  // namespace
}  // namespace simt::workloads
