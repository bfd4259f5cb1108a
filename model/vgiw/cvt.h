// The control vector table (seed 002 §3.3): one bit vector per block ID,
// indexed by thread slot; a set bit means the thread runs that block next.
// 64-bit words, read-and-reset (a read clears the word, so no second write
// port is needed), partitioned into banks by word index; each bank serves
// one read and one write a cycle, and a second access to a busy port is
// refused (a bank conflict: the BBS retries next cycle).
//
// Stats under `stats_name` (e.g. sm0.cvt): reads, writes, bank_conflicts,
// and threads_written (bits ORed in).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "stats/stats.h"
#include "util/packet_socket.h"
#include "vgiw/vgiw_packets.h"

namespace simt::vgiw {

class Cvt : public sc_core::sc_module {
 public:
  util::PacketTarget<Cvt, CvtAccess> in;  // from the BBS

  Cvt(sc_core::sc_module_name name, uint32_t bytes, uint32_t banks, stats::Registry& stats,
      const std::string& stats_name);

  uint32_t capacity_bits() const { return bytes_ * 8; }

 private:
  void on_access(CvtAccess& a, sc_core::sc_time& t);

  uint32_t bytes_, banks_;
  uint32_t blocks_ = 0, words_ = 0;
  std::vector<uint64_t> bits_;                         // [block][word]
  std::vector<uint64_t> read_cycle_, write_cycle_;     // per bank: the cycle its port was last used (+1)
  stats::Counter &reads_, &writes_, &conflicts_, &threads_written_;
};

}  // namespace simt::vgiw
