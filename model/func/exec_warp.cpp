// Warp-level operations: vote, activemask, shfl, match, redux.
//
// PTX warps are always 32 threads wide, so these act within 32-thread groups
// of the CTA (thread t is lane t % 32 of group t / 32) on the threads that
// execute the instruction, whatever warp width the timing model uses. A
// membermask further limits which of those threads take part. Lanes that do
// not execute the instruction contribute nothing. A shfl whose source lane is
// not executing or not in membermask reads a value PTX leaves undefined; the
// machine parameter func.shfl_undefined picks it (ExecEnv::shfl_undefined)
// and every such read is counted and warned about (ShflUndefinedLog).
#include <cstdint>

#include "func/exec_context.h"

namespace simt::func {

using ptx::Operand;
using ptx::Type;

namespace {

constexpr uint32_t kLanes = 32;

uint32_t groups(const ExecContext& c) { return (c.cta.threads() + kLanes - 1) / kLanes; }

// Executing lanes of group g as a 32-bit lane mask.
uint32_t group_bits(const ThreadMask& m, uint32_t g) {
  return static_cast<uint32_t>(m.word(g / 2) >> (32 * (g & 1)));
}

template <class F>
void for_lanes(uint32_t bits, F&& f) {
  while (bits) {
    f(static_cast<uint32_t>(__builtin_ctz(bits)));
    bits &= bits - 1;
  }
}

// membermask operand `i` for thread t (all lanes when the form has none).
uint32_t member_mask(const ExecContext& c, int i, uint32_t t) {
  return c.in.nops > i ? static_cast<uint32_t>(c.src(i, t, Type::U32)) : 0xffffffffu;
}

// ---------------------------------------------------------------- vote / activemask

std::string check_vote(const ptx::Instr& in) {
  if (in.mode > static_cast<uint8_t>(ptx::VoteMode::Ballot)) return "unknown vote mode";
  if (in.nops < 2) return "vote expects d, a{, membermask}";
  return "";
}

void exec_vote(ExecContext& c) {
  const auto mode = static_cast<ptx::VoteMode>(c.in.mode);
  const Operand& a = c.in.ops[1];
  for (uint32_t g = 0, ng = groups(c); g < ng; ++g) {
    const uint32_t exec = group_bits(c.mask, g);
    if (!exec) continue;
    uint32_t yes = 0;
    for_lanes(exec, [&](uint32_t l) {
      if (c.pred(a, g * kLanes + l)) yes |= 1u << l;
    });
    for_lanes(exec, [&](uint32_t l) {
      const uint32_t t = g * kLanes + l;
      const uint32_t part = exec & member_mask(c, 2, t);
      const uint32_t y = yes & part;
      switch (mode) {
        case ptx::VoteMode::All: c.dst(0, t, Type::Pred, y == part); break;
        case ptx::VoteMode::Any: c.dst(0, t, Type::Pred, y != 0); break;
        case ptx::VoteMode::Uni: c.dst(0, t, Type::Pred, y == 0 || y == part); break;
        case ptx::VoteMode::Ballot: c.dst(0, t, Type::B32, y); break;
      }
    });
  }
}

void exec_activemask(ExecContext& c) {
  for (uint32_t g = 0, ng = groups(c); g < ng; ++g) {
    const uint32_t exec = group_bits(c.mask, g);
    for_lanes(exec, [&](uint32_t l) { c.dst(0, g * kLanes + l, Type::B32, exec); });
  }
}

// ---------------------------------------------------------------- shfl

std::string check_shfl(const ptx::Instr& in) {
  if (in.type != Type::B32) return "shfl supports only .b32";
  if (in.nops < 4) return "shfl expects d{|p}, a, b, c{, membermask}";
  return "";
}

// The value a thread of group `g` reads from `src_lane`, which does not take part; `own` is its own `a`.
uint32_t undefined_read(ExecContext& c, uint32_t g, uint32_t src_lane, uint32_t own) {
  const ShflUndefined policy = c.env.shfl_undefined;
  if (c.env.shfl_log) c.env.shfl_log->note(c.cta.program(), c.pc, src_lane, policy);
  switch (policy) {
    case ShflUndefined::Self: return own;
    case ShflUndefined::Zero: return 0;
    case ShflUndefined::Source: {
      const uint32_t src = g * kLanes + src_lane;
      return src < c.cta.threads() ? static_cast<uint32_t>(c.src(1, src, Type::B32)) : 0;
    }
  }
  return 0;
}

// shfl{.sync}.mode.b32 d{|p}, a, b, c{, membermask}; c = (segmask << 8) | clamp.
void exec_shfl(ExecContext& c) {
  const auto mode = static_cast<ptx::ShflMode>(c.in.mode);
  const bool has_p = c.in.pout.kind == Operand::Kind::Reg;
  for (uint32_t g = 0, ng = groups(c); g < ng; ++g) {
    const uint32_t exec = group_bits(c.mask, g);
    if (!exec) continue;
    // Read every source first: d may be the same register as a.
    uint32_t val[kLanes];
    for_lanes(exec, [&](uint32_t l) { val[l] = static_cast<uint32_t>(c.src(1, g * kLanes + l, Type::B32)); });
    for_lanes(exec, [&](uint32_t l) {
      const uint32_t t = g * kLanes + l;
      const int32_t lane = static_cast<int32_t>(l);
      const int32_t b = static_cast<int32_t>(c.src(2, t, Type::U32) & 31);
      const uint32_t cc = static_cast<uint32_t>(c.src(3, t, Type::U32));
      const int32_t clamp = static_cast<int32_t>(cc & 31), seg = static_cast<int32_t>((cc >> 8) & 31);
      const int32_t max_lane = (lane & seg) | (clamp & ~seg);
      const int32_t min_lane = lane & seg;
      int32_t j = lane;
      bool in_range = false;
      switch (mode) {
        case ptx::ShflMode::Up: j = lane - b; in_range = j >= max_lane; break;
        case ptx::ShflMode::Down: j = lane + b; in_range = j <= max_lane; break;
        case ptx::ShflMode::Bfly: j = lane ^ b; in_range = j <= max_lane; break;
        case ptx::ShflMode::Idx: j = min_lane | (b & ~seg); in_range = j <= max_lane; break;
      }
      if (!in_range) j = lane;
      // Reading one's own lane is always defined.
      const uint32_t part = (exec & member_mask(c, 4, t)) | (1u << l);
      const uint32_t src_lane = static_cast<uint32_t>(j);
      const uint32_t v = (part >> src_lane) & 1 ? val[src_lane] : undefined_read(c, g, src_lane, val[l]);
      c.dst(0, t, Type::B32, v);
      if (has_p) c.write_reg(c.in.pout.reg, t, Type::Pred, in_range);
    });
  }
}

// ---------------------------------------------------------------- match

std::string check_match(const ptx::Instr& in) {
  if (in.type != Type::B32 && in.type != Type::B64) return "match supports .b32 and .b64";
  if (in.mode > static_cast<uint8_t>(ptx::MatchMode::All)) return "unknown match mode";
  if (in.nops < 3) return "match expects d{|p}, a, membermask";
  return "";
}

void exec_match(ExecContext& c) {
  const bool all = static_cast<ptx::MatchMode>(c.in.mode) == ptx::MatchMode::All;
  const bool has_p = c.in.pout.kind == Operand::Kind::Reg;
  for (uint32_t g = 0, ng = groups(c); g < ng; ++g) {
    const uint32_t exec = group_bits(c.mask, g);
    if (!exec) continue;
    uint64_t val[kLanes];
    for_lanes(exec, [&](uint32_t l) { val[l] = c.src(1, g * kLanes + l, c.in.type); });
    for_lanes(exec, [&](uint32_t l) {
      const uint32_t t = g * kLanes + l;
      const uint32_t part = exec & member_mask(c, 2, t);
      uint32_t same = 0;
      for_lanes(part, [&](uint32_t k) {
        if (val[k] == val[l]) same |= 1u << k;
      });
      if (all) {
        const bool uniform = same == part;
        c.dst(0, t, Type::B32, uniform ? part : 0);
        if (has_p) c.write_reg(c.in.pout.reg, t, Type::Pred, uniform);
      } else {
        c.dst(0, t, Type::B32, same);
      }
    });
  }
}

// ---------------------------------------------------------------- redux

std::string check_redux(const ptx::Instr& in) {
  using ptx::ReduxOp;
  const auto op = static_cast<ReduxOp>(in.mode);
  if (in.nops < 3) return "redux expects d, a, membermask";
  switch (op) {
    case ReduxOp::Add: case ReduxOp::Min: case ReduxOp::Max:
      if (in.type != Type::U32 && in.type != Type::S32) return "redux.add/min/max need .u32 or .s32";
      return "";
    case ReduxOp::And: case ReduxOp::Or: case ReduxOp::Xor:
      if (in.type != Type::B32) return "redux.and/or/xor need .b32";
      return "";
  }
  return "unknown redux operation";
}

void exec_redux(ExecContext& c) {
  using ptx::ReduxOp;
  const auto op = static_cast<ReduxOp>(c.in.mode);
  const bool sgn = c.in.type == Type::S32;
  for (uint32_t g = 0, ng = groups(c); g < ng; ++g) {
    const uint32_t exec = group_bits(c.mask, g);
    if (!exec) continue;
    uint32_t val[kLanes];
    for_lanes(exec, [&](uint32_t l) { val[l] = static_cast<uint32_t>(c.src(1, g * kLanes + l, Type::U32)); });
    for_lanes(exec, [&](uint32_t l) {
      const uint32_t t = g * kLanes + l;
      const uint32_t part = exec & member_mask(c, 2, t);
      bool first = true;
      uint32_t acc = 0;
      for_lanes(part, [&](uint32_t k) {
        const uint32_t v = val[k];
        if (first) { acc = v; first = false; return; }
        switch (op) {
          case ReduxOp::Add: acc += v; break;
          case ReduxOp::Min: acc = sgn ? (static_cast<int32_t>(v) < static_cast<int32_t>(acc) ? v : acc) : (v < acc ? v : acc); break;
          case ReduxOp::Max: acc = sgn ? (static_cast<int32_t>(v) > static_cast<int32_t>(acc) ? v : acc) : (v > acc ? v : acc); break;
          case ReduxOp::And: acc &= v; break;
          case ReduxOp::Or: acc |= v; break;
          case ReduxOp::Xor: acc ^= v; break;
        }
      });
      c.dst(0, t, Type::B32, acc);
    });
  }
}

}  // namespace

void register_warp_ops(HandlerTable& t) {
  t.add(ptx::Op::Vote, exec_vote, check_vote);
  t.add(ptx::Op::Activemask, exec_activemask);
  t.add(ptx::Op::Shfl, exec_shfl, check_shfl);
  t.add(ptx::Op::Match, exec_match, check_match);
  t.add(ptx::Op::Redux, exec_redux, check_redux);
}

}  // namespace simt::func
