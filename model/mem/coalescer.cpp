#include "mem/coalescer.h"

#include <algorithm>
#include <stdexcept>

#include "util/error.h"

namespace simt::mem {

namespace {

// A piece of one thread's access, bytes [off, off + n) of request `r`'s line:
// the thread, its member tag, and the bytes, a mask word at a time (a
// 4-byte access: one OR).
template <bool Tagged>
inline void mark(LineRequest& r, uint64_t* mask, uint32_t tid, uint64_t member_bit, uint32_t off, uint32_t n) {
  r.threads.set(tid);
  if (Tagged) r.members |= member_bit;
  if ((off & 63) + n < 64) {  // within one mask word: most accesses
    mask[off >> 6] |= ((uint64_t{1} << n) - 1) << (off & 63);
    return;
  }
  for (uint32_t b = off, end = off + n; b < end;) {
    const uint32_t lo = b & 63, k = std::min(end - b, 64 - lo);
    mask[b >> 6] |= (k == 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1) << lo;
    b += k;
  }
}

}  // namespace

void CoalescerParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".line", line, "coalescing granularity in bytes: one request per line touched (power of two)",
        4, 4096);
}

void CoalescerParams::validate(const std::string& prefix) const {
  for (const auto& [name, v] : {std::pair<const char*, uint32_t>{"line", line}, {"tex_line", tex_line}})
    if (v < 4 || v > 4096 || (v & (v - 1)) != 0)
      throw simt::input_error("option " + prefix + "." + name + ": " + std::to_string(v) +
                              " is not a power of two from 4 to 4096");
}

Coalescer::Coalescer(const CoalescerParams& p, stats::Registry& st, const std::string& n)
    : p_((p.validate(n), p)),
      mask_words_((std::max(p.line, p.tex_line) + 63) / 64),
      instructions_(st.counter(n + ".instructions", "warp memory instructions with at least one request")),
      requests_(st.counter(n + ".requests", "line requests emitted")),
      bytes_(st.counter(n + ".bytes", "distinct bytes touched, summed over requests")),
      // Bins 0..128 (a 32-thread v4 access can touch 128 lines); more lands in the last bin.
      per_instruction_(st.histogram(n + ".requests_per_instruction", 0, 1, 129,
                                    "line requests per warp memory instruction")) {}

size_t Coalescer::request_for(std::vector<LineRequest>& out, ptx::Space space, uint64_t line,
                              AccessKind kind) {
  // Consecutive threads mostly stay in the line touched last.
  if (last_ < out.size() && out[last_].line_addr == line && out[last_].space == space) return last_;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].line_addr == line && out[i].space == space) return last_ = i;
  out.emplace_back();
  LineRequest& r = out.back();
  r.space = space;
  r.kind = kind;
  r.line_addr = line;
  const size_t need = out.size() * mask_words_;
  if (masks_.size() < need) masks_.resize(need);
  for (size_t i = need - mask_words_; i < need; ++i) masks_[i] = 0;
  return last_ = out.size() - 1;
}

template <bool Tagged>
void Coalescer::touch(std::vector<LineRequest>& out, ptx::Space space, uint32_t line_bytes, uint32_t tid,
                      uint64_t addr, uint32_t size, AccessKind kind, uint64_t member_bit) {
  const uint64_t lmask = uint64_t{line_bytes} - 1;
  while (size > 0) {
    const uint64_t line = addr & ~lmask;
    const uint32_t off = static_cast<uint32_t>(addr & lmask);
    const uint32_t piece = std::min<uint32_t>(size, line_bytes - off);  // a piece never crosses a line
    const size_t r = request_for(out, space, line, kind);
    mark<Tagged>(out[r], &masks_[r * mask_words_], tid, member_bit, off, piece);
    addr += piece;
    size -= piece;
  }
}

template <bool Tagged>
void Coalescer::add_all(const std::vector<func::MemAccess>& accesses, AccessKind kind, std::vector<LineRequest>& out,
                        const LocalLayout* layouts, size_t parts, const uint8_t* member) {
  const uint8_t* tag = member;
  for (const func::MemAccess& a : accesses) {
    const uint64_t mbit = Tagged ? uint64_t{1} << *tag++ : 0;
    switch (a.space) {
      case ptx::Space::Shared:
        continue;  // served by the shared-memory banks
      case ptx::Space::Local: {
        const LocalLayout* local = layouts && a.part < parts ? &layouts[a.part] : nullptr;
        if (!local || local->threads == 0)
          throw std::invalid_argument("coalescer: local-memory access without a local layout");
        if (a.tid >= local->threads)
          throw std::invalid_argument("coalescer: local access by thread " + std::to_string(a.tid) +
                                      " outside the layout's " + std::to_string(local->threads) + " threads");
        // Word by word: the words of one thread are `threads` words apart.
        uint64_t addr = a.addr;
        uint32_t left = a.size;
        while (left > 0) {
          const uint32_t in_word = static_cast<uint32_t>(addr & 3);
          const uint32_t piece = std::min<uint32_t>(left, 4 - in_word);
          const uint64_t phys = local->base + ((addr >> 2) * local->threads + a.tid) * 4 + in_word;
          touch<Tagged>(out, ptx::Space::Global, p_.line, a.tid, phys, piece, kind, mbit);
          addr += piece;
          left -= piece;
        }
        break;
      }
      case ptx::Space::Global:
      case ptx::Space::Const:
      case ptx::Space::Param: {
        // Most accesses fall in the line of the one before (unit stride):
        // what touch() would do then, without its line loop and the call.
        const uint64_t lmask = uint64_t{p_.line} - 1;
        const uint32_t off = static_cast<uint32_t>(a.addr & lmask);
        if (last_ < out.size() && out[last_].line_addr == (a.addr & ~lmask) && out[last_].space == a.space &&
            off + a.size <= p_.line) {
          mark<Tagged>(out[last_], &masks_[last_ * mask_words_], a.tid, mbit, off, a.size);
          break;
        }
        touch<Tagged>(out, a.space, p_.line, a.tid, a.addr, a.size, kind, mbit);
        break;
      }
      case ptx::Space::Tex:  // texture fetches only read
        touch<Tagged>(out, a.space, p_.tex_line, a.tid, a.addr, a.size, AccessKind::Read, mbit);
        break;
      default:
        throw std::invalid_argument(std::string("coalescer: access in unexpected space ") +
                                    ptx::space_name(a.space));
    }
  }
}

size_t Coalescer::coalesce(const std::vector<func::MemAccess>& accesses, AccessKind kind,
                           std::vector<LineRequest>& out, const LocalLayout* layouts, size_t parts,
                           const uint8_t* member) {
  out.clear();
  last_ = 0;
  if (member)
    add_all<true>(accesses, kind, out, layouts, parts, member);
  else
    add_all<false>(accesses, kind, out, layouts, parts, member);
  if (out.empty()) return 0;
  for (size_t r = 0; r < out.size(); ++r) {
    uint32_t n = 0;
    const uint64_t* m = &masks_[r * mask_words_];
    for (uint32_t i = 0; i < mask_words_; ++i) n += static_cast<uint32_t>(__builtin_popcountll(m[i]));
    out[r].bytes = n;
    bytes_ += n;
  }
  ++instructions_;
  requests_ += out.size();
  per_instruction_.add(static_cast<int64_t>(out.size()));
  return out.size();
}

}  // namespace simt::mem
