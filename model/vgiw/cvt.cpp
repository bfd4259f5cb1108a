#include "vgiw/cvt.h"

#include <stdexcept>

#include "util/cycle.h"

namespace simt::vgiw {

Cvt::Cvt(sc_core::sc_module_name name, uint32_t bytes, uint32_t banks, stats::Registry& stats,
         const std::string& n)
    : sc_core::sc_module(name),
      in("in", this, &Cvt::on_access),
      bytes_(bytes),
      banks_(banks),
      read_cycle_(banks, 0),
      write_cycle_(banks, 0),
      reads_(stats.counter(n + ".reads", "64-bit words read (and reset) by the BBS")),
      writes_(stats.counter(n + ".writes", "64-bit words ORed into by the BBS (returned thread batches)")),
      conflicts_(stats.counter(n + ".bank_conflicts", "accesses refused because the bank's port was busy")),
      threads_written_(stats.counter(n + ".threads_written", "thread bits ORed into block vectors")) {}

void Cvt::on_access(CvtAccess& a, sc_core::sc_time&) {
  if (a.kind == CvtAccess::Format) {
    if (uint64_t{a.block} * a.word * 64 > capacity_bits())
      throw std::logic_error(std::string(name()) + ": formatted beyond its capacity");
    blocks_ = a.block;
    words_ = a.word;
    bits_.assign(size_t{blocks_} * words_, 0);
    a.accepted = true;
    return;
  }
  if (a.block >= blocks_ || a.word >= words_)
    throw std::logic_error(std::string(name()) + ": access outside the formatted table");
  const uint64_t stamp = util::now_cycle() + 1;  // 0 = never used
  const uint32_t bank = a.word % banks_;
  std::vector<uint64_t>& port = a.kind == CvtAccess::Or ? write_cycle_ : read_cycle_;
  if (port[bank] == stamp) {
    ++conflicts_;
    a.accepted = false;
    return;
  }
  port[bank] = stamp;
  uint64_t& w = bits_[size_t{a.block} * words_ + a.word];
  if (a.kind == CvtAccess::Or) {
    w |= a.bits;
    ++writes_;
    threads_written_ += static_cast<uint64_t>(__builtin_popcountll(a.bits));
  } else {
    a.bits = w;
    w = 0;
    ++reads_;
  }
  a.accepted = true;
}

}  // namespace simt::vgiw
