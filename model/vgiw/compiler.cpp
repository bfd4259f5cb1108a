#include "vgiw/compiler.h"

#include <algorithm>
#include <mutex>

#include "util/error.h"

namespace simt::vgiw {

Compilation::Compilation(const ptx::Program& p, const CompilerOptions& o)
    : own_(std::make_unique<const ptx::Program>(if_convert(p, o.if_convert_limit, &ifc_))),
      p_(*own_),
      opt_(o),
      layout_(o.grid),
      cfg_(p_) {
  for (;;) {
    build(true);
    auto bad = std::find_if(blocks_.begin(), blocks_.end(),
                            [](const CompiledBlock& b) { return b.reachable && b.replicas == 0; });
    if (bad == blocks_.end()) break;
    const CompiledBlock b = *bad;
    if (b.end - b.begin < 2) {
      for (size_t u = 0; u < kUnitTypes; ++u)
        if (b.graph.needs().n[u] > opt_.grid.n[u])
          throw input_error("vgiw: " + where(p_, b.begin) + ": block " + std::to_string(b.id) + " needs " +
                            std::to_string(b.graph.needs().n[u]) + " " + unit_name(static_cast<Unit>(u)) +
                            " units and the grid has " + std::to_string(opt_.grid.n[u]));
      throw input_error("vgiw: " + where(p_, b.begin) + ": block " + std::to_string(b.id) +
                        " cannot be routed with " + std::to_string(opt_.tracks) + " track(s) per switch link");
    }
    // Cut after the longest prefix whose units fit (binary search; without
    // placement), or in the middle when none does.
    uint32_t lo = b.begin + 1, hi = b.end - 1, best = b.begin + (b.end - b.begin) / 2;
    bool found = false;
    while (lo <= hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      starts_.push_back(mid);
      build(false);
      const bool fits = blocks_[id_at(b.begin)].replicas > 0;
      starts_.pop_back();
      if (fits) {
        best = mid;
        found = true;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found && best == b.end - 1 && b.end - b.begin > 2) best = b.begin + (b.end - b.begin) / 2;  // routing failed
    starts_.push_back(best);
  }
  // After the pass's own refusals (block_graph.h), so that they come first.
  exec_ = std::make_unique<func::Executor>(p_);
}

void Compilation::build(bool place) {
  graph_ = std::make_unique<BlockGraph>(p_, cfg_, starts_);
  order_ = schedule_order(*graph_);
  lv_ = std::make_unique<LiveValues>(p_, cfg_, *graph_);
  blocks_.clear();
  blocks_.reserve(order_.block_at.size());
  for (uint32_t id = 0; id < order_.block_at.size(); ++id) {
    const uint32_t bi = order_.block_at[id];
    const Block& b = graph_->blocks()[bi];
    CompiledBlock c{id,
                    b.begin,
                    b.end,
                    {},
                    kNone,
                    b.exits,
                    b.barrier,
                    b.reachable,
                    order_.loop_head[id],
                    order_.loop_end[id],
                    lv_->live_in(bi),
                    lv_->live_out(bi),
                    DataflowGraph(p_, *graph_, *lv_, bi),
                    {},
                    0};
    for (uint32_t s : b.succs) c.succ_ids.push_back(order_.id_of[s]);
    std::sort(c.succ_ids.begin(), c.succ_ids.end());
    if (b.taken != kNone) c.taken_id = order_.id_of[b.taken];
    if (c.reachable && c.graph.replicas(opt_.grid) > 0) {
      if (place) {
        c.placement = place_and_route(c.graph, layout_, opt_.tracks);
        c.replicas = static_cast<uint32_t>(c.placement.replicas.size());
      } else {
        c.replicas = c.graph.replicas(opt_.grid);
      }
    }
    blocks_.push_back(std::move(c));
  }
}

std::shared_ptr<const Compilation> compile_for(const std::shared_ptr<const void>& owner, const ptx::Program& p,
                                               const CompilerOptions& o) {
  struct Entry {
    std::weak_ptr<const void> owner;
    const ptx::Program* program;
    CompilerOptions options;
    std::shared_ptr<const Compilation> compiled;
  };
  static std::mutex lock;
  static std::vector<Entry> cache;
  const std::lock_guard<std::mutex> hold(lock);
  cache.erase(std::remove_if(cache.begin(), cache.end(), [](const Entry& e) { return e.owner.expired(); }),
              cache.end());
  for (const Entry& e : cache)
    if (e.owner.lock() == owner && e.program == &p && e.options.grid.n == o.grid.n &&
        e.options.tracks == o.tracks && e.options.if_convert_limit == o.if_convert_limit)
      return e.compiled;
  auto c = std::make_shared<const Compilation>(p, o);
  cache.push_back({owner, &p, o, c});
  return c;
}

uint32_t Compilation::id_at(uint32_t pc) const {
  const uint32_t b = graph_->block_of(pc);
  return b == kNone ? kNone : order_.id_of[b];
}

}  // namespace simt::vgiw
