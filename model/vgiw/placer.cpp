#include "vgiw/placer.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace simt::vgiw {

namespace {

uint64_t link_key(uint32_t a, uint32_t b) {
  return a < b ? (uint64_t{a} << 32 | b) : (uint64_t{b} << 32 | a);
}

bool adjacent(const GridLayout& l, uint32_t a, uint32_t b) {
  const Cell x = l.cell(a), y = l.cell(b);
  return std::abs(x.row - y.row) + std::abs(x.col - y.col) == 1;
}

// Track use of the switch-to-switch links: the nets (producers) on each.
class Tracks {
 public:
  explicit Tracks(uint32_t per_link) : per_link_(per_link) {}
  bool usable(uint64_t link, uint64_t net) const {
    auto it = nets_.find(link);
    if (it == nets_.end()) return per_link_ > 0;
    return it->second.size() < per_link_ || std::find(it->second.begin(), it->second.end(), net) != it->second.end();
  }
  // Returns whether this took a new track (to undo it later).
  bool take(uint64_t link, uint64_t net) {
    auto& v = nets_[link];
    if (std::find(v.begin(), v.end(), net) != v.end()) return false;
    v.push_back(net);
    return true;
  }
  void give_back(uint64_t link, uint64_t net) {
    auto& v = nets_[link];
    v.erase(std::find(v.begin(), v.end(), net));
  }

 private:
  uint32_t per_link_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> nets_;
};

// Shortest switch path from s to t with a free track for `net`, or empty.
std::vector<uint32_t> route(const GridLayout& l, const Tracks& tr, uint32_t s, uint32_t t, uint64_t net) {
  if (s == t) return {s};
  std::vector<uint32_t> prev(l.switches(), UINT32_MAX);
  std::vector<uint32_t> frontier{s};
  prev[s] = s;
  while (!frontier.empty() && prev[t] == UINT32_MAX) {
    std::vector<uint32_t> next;
    for (uint32_t x : frontier)
      for (uint32_t y : l.switch_links(x))
        if (prev[y] == UINT32_MAX && tr.usable(link_key(x, y), net)) {
          prev[y] = x;
          next.push_back(y);
        }
    frontier.swap(next);
  }
  if (prev[t] == UINT32_MAX) return {};
  std::vector<uint32_t> path{t};
  while (path.back() != s) path.push_back(prev[path.back()]);
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

Placement place_and_route(const DataflowGraph& g, const GridLayout& layout, uint32_t tracks, uint32_t max_replicas) {
  const auto& nodes = g.nodes();
  std::vector<uint8_t> used(layout.units(), 0);
  Tracks tr(tracks);
  Placement out;
  while (out.replicas.size() < max_replicas) {
    const uint64_t base = static_cast<uint64_t>(out.replicas.size()) * nodes.size();
    Replica r;
    r.unit_of.assign(nodes.size(), kNone);
    std::vector<std::pair<uint64_t, uint64_t>> taken;  // tracks this replica took
    bool ok = true;
    for (uint32_t i = 0; i < nodes.size() && ok; ++i) {
      uint32_t best = kNone, best_cost = UINT32_MAX;
      for (uint32_t u : layout.units_of(nodes[i].unit)) {
        if (used[u]) continue;
        uint32_t cost = 0;
        for (const auto* in : {&nodes[i].data, &nodes[i].control})
          for (uint32_t j : *in) cost += layout.latency(r.unit_of[j], u);
        if (cost < best_cost) best_cost = cost, best = u;
      }
      if (best == kNone) ok = false;
      else used[best] = 1, r.unit_of[i] = best;
    }
    for (uint32_t i = 0; i < nodes.size() && ok; ++i)
      for (const bool control : {false, true})
        for (uint32_t j : control ? nodes[i].control : nodes[i].data) {
          if (!ok) break;
          RoutedEdge e{j, i, control, 1, {}};
          const uint32_t a = r.unit_of[j], b = r.unit_of[i];
          if (!adjacent(layout, a, b)) {
            const uint64_t net = base + j;
            std::vector<uint32_t> best;
            for (uint32_t p = 0; p < 4; ++p) {
              std::vector<uint32_t> path = route(layout, tr, layout.corner(a, p), layout.corner(b, p), net);
              if (!path.empty() && (best.empty() || path.size() < best.size())) best.swap(path);
            }
            if (best.empty()) {
              ok = false;
              break;
            }
            for (size_t k = 0; k + 1 < best.size(); ++k) {
              const uint64_t link = link_key(best[k], best[k + 1]);
              if (tr.take(link, net)) taken.push_back({link, net});
            }
            e.latency = static_cast<uint32_t>(best.size());  // 1 + switch links
            e.switches = std::move(best);
          }
          r.edges.push_back(std::move(e));
        }
    if (!ok) {  // undo this replica
      for (uint32_t u : r.unit_of)
        if (u != kNone) used[u] = 0;
      for (const auto& t : taken) tr.give_back(t.first, t.second);
      break;
    }
    out.replicas.push_back(std::move(r));
  }
  if (out.replicas.empty()) return out;
  // Latencies of the first replica (the others are placed alike, a little further out).
  const Replica& r0 = out.replicas.front();
  std::vector<uint32_t> arrive(nodes.size(), 0);
  uint64_t sum = 0;
  for (const RoutedEdge& e : r0.edges) {  // edges come grouped by consumer, consumers in order
    out.max_latency = std::max(out.max_latency, e.latency);
    sum += e.latency;
    arrive[e.to] = std::max(arrive[e.to], arrive[e.from] + e.latency);
  }
  out.mean_latency = r0.edges.empty() ? 0 : static_cast<double>(sum) / static_cast<double>(r0.edges.size());
  out.critical_path = arrive.back();
  return out;
}

}  // namespace simt::vgiw
