// Streams and events of the CUDA runtime on one simulated timeline. Work
// runs in the order the program issues it, whatever stream it names (the
// device executes one thing at a time), so every stream is always idle
// when the call that issued work returns. Time is the modelled time: each
// timing-mode launch advances the clock by its cycles at the machine's
// clock (sm.clock_mhz); functional launches and copies take none. An event
// records the clock when it is recorded, so cudaEventElapsedTime between
// two events around a launch gives the launch's modelled time.
#pragma once

#include <cstdint>
#include <memory>
#include <map>

#include "cudart/cuda_abi.h"

namespace simt::cudart {

struct Stream {
  unsigned flags = 0;
  int priority = 0;
};

struct Event {
  unsigned flags = 0;
  bool recorded = false;
  double time_ns = 0;
};

class StreamClock {
 public:
  double now_ns() const { return now_ns_; }
  void advance(uint64_t cycles, double clock_mhz) { now_ns_ += static_cast<double>(cycles) * 1000.0 / clock_mhz; }

  abi::cudaStream_t create_stream(unsigned flags, int priority);
  // The default stream (0), cudaStreamLegacy, cudaStreamPerThread, or a live created one.
  bool valid(abi::cudaStream_t s) const;
  bool destroy(abi::cudaStream_t s);  // false: not a created stream
  const Stream* stream(abi::cudaStream_t s) const;

  abi::cudaEvent_t create_event(unsigned flags);
  Event* event(abi::cudaEvent_t e);   // null: not a live event
  bool destroy(abi::cudaEvent_t e);
  void record(Event& e) {
    e.recorded = true;
    e.time_ns = now_ns_;
  }

 private:
  double now_ns_ = 0;
  std::map<const void*, std::unique_ptr<Stream>> streams_;  // by handle: the record's address
  std::map<const void*, std::unique_ptr<Event>> events_;
};

}  // namespace simt::cudart
