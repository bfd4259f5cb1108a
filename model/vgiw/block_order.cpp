#include "vgiw/block_order.h"

#include <algorithm>

#include "util/error.h"

namespace simt::vgiw {

namespace {

// Bourdoncle's recursive construction of a weak topological order.
class Wto {
 public:
  // An element of the order: a block, or a component (a loop) headed by it.
  struct Node {
    uint32_t block = 0;
    bool component = false;
    std::vector<Node> sub;  // a component's body after its head
  };

  explicit Wto(const BlockGraph& g) : g_(g), dfn_(g.blocks().size(), 0) {}

  std::vector<Node> run() {
    std::vector<Node> top;
    if (!g_.blocks().empty()) visit(0, top);
    std::reverse(top.begin(), top.end());
    return top;
  }

 private:
  static constexpr uint32_t kDone = 0xffffffffu;

  // Successors, higher block first: nodes are prepended as they finish, so
  // the lower block (PC) of two independent ones ends up first.
  std::vector<uint32_t> succs(uint32_t v) const {
    std::vector<uint32_t> s = g_.blocks()[v].succs;
    std::sort(s.rbegin(), s.rend());
    return s;
  }

  // `partition` collects finished nodes in reverse order.
  uint32_t visit(uint32_t v, std::vector<Node>& partition) {
    stack_.push_back(v);
    dfn_[v] = ++num_;
    uint32_t head = dfn_[v];
    bool loop = false;
    for (uint32_t w : succs(v)) {
      const uint32_t min = dfn_[w] == 0 ? visit(w, partition) : dfn_[w];
      if (min <= head) {
        head = min;
        loop = true;
      }
    }
    if (head == dfn_[v]) {
      dfn_[v] = kDone;
      uint32_t e = pop();
      if (loop) {
        while (e != v) {
          dfn_[e] = 0;
          e = pop();
        }
        partition.push_back(component(v));
      } else {
        partition.push_back(Node{v, false, {}});
      }
    }
    return head;
  }

  Node component(uint32_t v) {
    Node c{v, true, {}};
    for (uint32_t w : succs(v))
      if (dfn_[w] == 0) visit(w, c.sub);
    std::reverse(c.sub.begin(), c.sub.end());
    return c;
  }

  uint32_t pop() {
    const uint32_t e = stack_.back();
    stack_.pop_back();
    return e;
  }

  const BlockGraph& g_;
  std::vector<uint32_t> dfn_, stack_;
  uint32_t num_ = 0;
};

void flatten(const std::vector<Wto::Node>& nodes, uint32_t head_id, BlockOrder& o) {
  for (const Wto::Node& n : nodes) {
    const uint32_t id = static_cast<uint32_t>(o.block_at.size());
    o.block_at.push_back(n.block);
    o.loop_head.push_back(n.component ? id : head_id);
    o.loop_end.push_back(kNone);
    if (n.component) {
      flatten(n.sub, id, o);
      o.loop_end[id] = static_cast<uint32_t>(o.block_at.size());
    }
  }
}

}  // namespace

BlockOrder schedule_order(const BlockGraph& g) {
  BlockOrder o;
  flatten(Wto(g).run(), kNone, o);
  // Blocks no path reaches: last, in PC order.
  std::vector<uint8_t> placed(g.blocks().size(), 0);
  for (uint32_t b : o.block_at) placed[b] = 1;
  for (uint32_t b = 0; b < g.blocks().size(); ++b)
    if (!placed[b]) {
      o.block_at.push_back(b);
      o.loop_head.push_back(kNone);
      o.loop_end.push_back(kNone);
    }
  o.id_of.assign(g.blocks().size(), kNone);
  for (uint32_t id = 0; id < o.block_at.size(); ++id) o.id_of[o.block_at[id]] = id;
  if (!o.block_at.empty() && o.block_at[0] != 0)
    throw internal_error("vgiw: the schedule order does not start at the entry block");
  return o;
}

}  // namespace simt::vgiw
