#include "ptx/register_slots.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ptx/def_use.h"
#include "ptx/liveness.h"

namespace simt::ptx {

namespace {

// Instructions that read registers of lanes other than their own.
bool reads_other_lanes(Op op) {
  switch (op) {
    case Op::Shfl: case Op::Vote: case Op::Match: case Op::Redux: case Op::BarWarp:
    case Op::Wmma: case Op::Mma: case Op::Ldmatrix:
      return true;
    default:
      return false;
  }
}

// Square bit matrix over one function's registers (local numbering).
class Interference {
 public:
  explicit Interference(uint32_t n) : n_(n), words_((n + 63) / 64), bits_(size_t{n} * words_, 0) {}
  void add(uint32_t a, uint32_t b) {
    if (a == b) return;
    set(a, b);
    set(b, a);
  }
  const uint64_t* row(uint32_t a) const { return bits_.data() + size_t{a} * words_; }
  uint32_t words() const { return words_; }

 private:
  void set(uint32_t a, uint32_t b) { bits_[size_t{a} * words_ + b / 64] |= uint64_t{1} << (b % 64); }
  uint32_t n_, words_;
  std::vector<uint64_t> bits_;
};

// One function's share: registers [rb, re), its blocks, the registers that
// must keep a slot of their own.
class FunctionSlots {
 public:
  FunctionSlots(const Program& p, const Cfg& cfg, const Liveness& live, uint32_t func, uint32_t rb, uint32_t re)
      : p_(p), cfg_(cfg), live_(live), func_(func), rb_(rb), n_(re - rb), graph_(n_), live_now_(n_, 0) {}

  // Slots relative to the function's first slot; returns how many it uses.
  uint32_t assign(const std::vector<uint8_t>& private_reg, std::vector<uint32_t>& slot_out) {
    build();
    std::vector<uint32_t> slot(n_, kNone);
    uint32_t used = 0;
    for (uint32_t i = 0; i < n_; ++i)
      if (private_reg[rb_ + i]) slot[i] = used++;
    const uint32_t first_shared = used;
    std::vector<uint8_t> taken;
    for (uint32_t i = 0; i < n_; ++i) {
      if (slot[i] != kNone) continue;
      // Lowest shared slot no already placed neighbour holds.
      taken.assign(used - first_shared + 1, 0);
      const uint64_t* row = graph_.row(i);
      for (uint32_t w = 0; w < graph_.words(); ++w)
        for (uint64_t bits = row[w]; bits; bits &= bits - 1) {
          const uint32_t j = w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
          if (slot[j] != kNone && slot[j] >= first_shared) taken[slot[j] - first_shared] = 1;
        }
      uint32_t s = 0;
      while (taken[s]) ++s;
      slot[i] = first_shared + s;
      if (slot[i] == used) ++used;
    }
    for (uint32_t i = 0; i < n_; ++i) slot_out[rb_ + i] = slot[i];
    return used;
  }

 private:
  static constexpr uint32_t kNone = ~0u;

  bool mine(uint32_t r) const { return r >= rb_ && r - rb_ < n_; }

  // Walks each block backwards from its live-out set: a register written by
  // an instruction interferes with everything live after it, with the
  // instruction's other results, and with its operands (so no instruction
  // ever reads a slot it has already written, whatever the executor's order).
  void build() {
    for (uint32_t b = cfg_.func_first_block(func_); b < cfg_.func_end_block(func_); ++b) {
      const BasicBlock& bb = cfg_.blocks()[b];
      std::fill(live_now_.begin(), live_now_.end(), 0);
      live_list_.clear();
      for (uint32_t r : live_.live_out_regs(b))
        if (mine(r)) make_live(r - rb_);
      for (uint32_t pc = bb.end; pc-- > bb.begin;) {
        const DefUse du = def_use(p_.code[pc]);
        for (uint32_t d : du.defs) {
          if (!mine(d)) continue;
          for (uint32_t l : live_list_)
            if (live_now_[l]) graph_.add(d - rb_, l);
          for (uint32_t d2 : du.defs)
            if (mine(d2)) graph_.add(d - rb_, d2 - rb_);
          for (uint32_t u : du.uses)
            if (mine(u)) graph_.add(d - rb_, u - rb_);
        }
        if (!du.partial_defs)
          for (uint32_t d : du.defs)
            if (mine(d)) live_now_[d - rb_] = 0;
        for (uint32_t u : du.uses)
          if (mine(u)) make_live(u - rb_);
        compact_live_list();
      }
    }
  }
  void make_live(uint32_t i) {
    if (!live_now_[i]) {
      live_now_[i] = 1;
      live_list_.push_back(i);
    }
  }
  // Drops the registers that died, keeping the list as short as the live set.
  void compact_live_list() {
    size_t k = 0;
    for (uint32_t l : live_list_)
      if (live_now_[l] == 1) {
        live_now_[l] = 2;  // seen: a duplicate entry is dropped
        live_list_[k++] = l;
      }
    live_list_.resize(k);
    for (uint32_t l : live_list_) live_now_[l] = 1;
  }

  const Program& p_;
  const Cfg& cfg_;
  const Liveness& live_;
  uint32_t func_, rb_, n_;
  Interference graph_;
  std::vector<uint8_t> live_now_;   // by local register: 1 = live at the current point
  std::vector<uint32_t> live_list_; // the live ones (may hold dead entries until compacted)
};

}  // namespace

void share_register_slots(Program& p, const Cfg& cfg) {
  const uint32_t n = p.num_regs();
  const Liveness live(p, cfg);  // first: it refuses register ids out of range, with the PC
  std::vector<uint8_t> private_reg(n, 0);
  for (const Instr& in : p.code)
    if (reads_other_lanes(in.op)) {
      const DefUse du = def_use(in);
      for (uint32_t r : du.uses) private_reg[r] = 1;
      for (uint32_t r : du.defs) private_reg[r] = 1;
    }
  // Read or written where def/use does not say: an indirect call's target,
  // the return address (written by the call, read by ret).
  for (const CallInfo& c : p.calls)
    if (c.callee_reg < n) private_reg[c.callee_reg] = 1;
  for (const FuncRange& f : p.funcs)
    if (f.retaddr_reg < n) private_reg[f.retaddr_reg] = 1;
  for (uint32_t f = 0; f < cfg.num_funcs(); ++f)
    if (cfg.func_first_block(f) < cfg.func_end_block(f))
      for (uint32_t r : live.live_in_regs(cfg.func_first_block(f))) private_reg[r] = 1;

  // Registers outside every function's range (none after link) keep a slot each.
  std::vector<uint32_t> slot(n, ~0u);
  uint32_t next = 0;
  for (uint32_t f = 0; f < p.funcs.size(); ++f) {
    const FuncRange& fr = p.funcs[f];
    const uint32_t rb = fr.reg_begin, re = std::min(fr.reg_end, n);
    if (re <= rb) continue;
    if (re - rb > kMaxSharedSlotRegs || f >= cfg.num_funcs()) {
      for (uint32_t r = rb; r < re; ++r) slot[r] = next++;
      continue;
    }
    FunctionSlots fs(p, cfg, live, f, rb, re);
    const uint32_t used = fs.assign(private_reg, slot);
    for (uint32_t r = rb; r < re; ++r) slot[r] += next;
    next += used;
  }
  for (uint32_t r = 0; r < n; ++r)
    if (slot[r] == ~0u) slot[r] = next++;
  p.reg_slot = std::move(slot);
  p.reg_slots = next;
}

}  // namespace simt::ptx
