#include "sm/instruction_buffer.h"

#include <stdexcept>

#include "config/param_registry.h"
#include "util/error.h"

namespace simt::sm {

void IBufferParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".entries", entries, "decoded instructions buffered per warp", 1, 64);
}

void IBufferParams::validate(const std::string& prefix) const {
  if (entries < 1 || entries > 64) throw input_error("option " + prefix + ".entries: must be 1..64");
}

InstructionBuffer::InstructionBuffer(const IBufferParams& p, uint32_t warps)
    : warps_(warps), cap_(p.entries) {
  p.validate("ibuffer");
  slots_.assign(size_t(warps) * cap_, Entry{});
  head_.assign(warps, 0);
  count_.assign(warps, 0);
  gen_.assign(warps, 0);
  ready_.assign((size_t{warps} + 63) / 64, 0);
}

void InstructionBuffer::check_warp(uint32_t warp) const {
  if (warp >= warps_)
    throw std::logic_error("ibuffer: warp " + std::to_string(warp) + " out of range");
}

void InstructionBuffer::push(uint32_t warp, uint32_t pc, const ptx::Instr* instr) {
  check_warp(warp);
  if (count_[warp] == cap_) throw std::logic_error("ibuffer: push to the full buffer of warp " + std::to_string(warp));
  Entry& e = at(warp, count_[warp]);
  e.pc = pc;
  e.instr = instr;
  e.valid = true;
  ++count_[warp];
}

void InstructionBuffer::set_ready_misuse(uint32_t warp) const {
  check_warp(warp);
  throw std::logic_error("ibuffer: set_ready on the empty buffer of warp " + std::to_string(warp));
}

void InstructionBuffer::pop(uint32_t warp) {
  check_warp(warp);
  if (count_[warp] == 0) throw std::logic_error("ibuffer: pop from the empty buffer of warp " + std::to_string(warp));
  at(warp, 0) = Entry{};
  clear_ready(warp);  // the next entry, if any, has not been checked
  head_[warp] = (head_[warp] + 1) % cap_;
  --count_[warp];
}

uint32_t InstructionBuffer::flush(uint32_t warp) {
  check_warp(warp);
  uint32_t n = count_[warp];
  for (uint32_t k = 0; k < n; ++k) at(warp, k) = Entry{};
  count_[warp] = 0;
  head_[warp] = 0;
  clear_ready(warp);
  ++gen_[warp];
  return n;
}

uint32_t InstructionBuffer::next_pc(uint32_t warp, uint32_t fallback) const {
  check_warp(warp);
  if (count_[warp] == 0) return fallback;
  return slots_[size_t(warp) * cap_ + (head_[warp] + count_[warp] - 1) % cap_].pc + 1;
}

}  // namespace simt::sm
