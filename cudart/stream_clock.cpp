#include "cudart/stream_clock.h"

namespace simt::cudart {

namespace {

template <class T>
T* find_handle(const std::map<const void*, std::unique_ptr<T>>& map, const void* h) {
  auto it = map.find(h);
  return it == map.end() ? nullptr : it->second.get();
}

// The special handles of the CUDA runtime: the legacy default stream and
// the per-thread default stream (driver_types.h: cudaStreamLegacy = 0x1,
// cudaStreamPerThread = 0x2).
bool special_stream(abi::cudaStream_t s) {
  const auto v = reinterpret_cast<uintptr_t>(s);
  return v == 0 || v == 1 || v == 2;
}

}  // namespace

abi::cudaStream_t StreamClock::create_stream(unsigned flags, int priority) {
  auto s = std::make_unique<Stream>();
  s->flags = flags;
  s->priority = priority;
  auto* h = reinterpret_cast<abi::cudaStream_t>(s.get());
  streams_[h] = std::move(s);
  return h;
}

bool StreamClock::valid(abi::cudaStream_t s) const { return special_stream(s) || find_handle(streams_, s); }

bool StreamClock::destroy(abi::cudaStream_t s) { return streams_.erase(s) != 0; }

const Stream* StreamClock::stream(abi::cudaStream_t s) const { return find_handle(streams_, s); }

abi::cudaEvent_t StreamClock::create_event(unsigned flags) {
  auto e = std::make_unique<Event>();
  e->flags = flags;
  auto* h = reinterpret_cast<abi::cudaEvent_t>(e.get());
  events_[h] = std::move(e);
  return h;
}

Event* StreamClock::event(abi::cudaEvent_t e) { return find_handle(events_, e); }

bool StreamClock::destroy(abi::cudaEvent_t e) { return events_.erase(e) != 0; }

}  // namespace simt::cudart
