#include "cudart/stream_clock.h"

#include <algorithm>

namespace simt::cudart {

namespace {

template <class T, class H>
T* find_handle(const std::set<std::unique_ptr<T>>& set, H h) {
  auto it = std::find_if(set.begin(), set.end(),
                         [&](const std::unique_ptr<T>& p) { return static_cast<const void*>(p.get()) == h; });
  return it == set.end() ? nullptr : it->get();
}

template <class T, class H>
bool erase_handle(std::set<std::unique_ptr<T>>& set, H h) {
  auto it = std::find_if(set.begin(), set.end(),
                         [&](const std::unique_ptr<T>& p) { return static_cast<const void*>(p.get()) == h; });
  if (it == set.end()) return false;
  set.erase(it);
  return true;
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
  streams_.insert(std::move(s));
  return h;
}

bool StreamClock::valid(abi::cudaStream_t s) const { return special_stream(s) || find_handle(streams_, s); }

bool StreamClock::destroy(abi::cudaStream_t s) { return erase_handle(streams_, s); }

const Stream* StreamClock::stream(abi::cudaStream_t s) const { return find_handle(streams_, s); }

abi::cudaEvent_t StreamClock::create_event(unsigned flags) {
  auto e = std::make_unique<Event>();
  e->flags = flags;
  auto* h = reinterpret_cast<abi::cudaEvent_t>(e.get());
  events_.insert(std::move(e));
  return h;
}

Event* StreamClock::event(abi::cudaEvent_t e) { return find_handle(events_, e); }

bool StreamClock::destroy(abi::cudaEvent_t e) { return erase_handle(events_, e); }

}  // namespace simt::cudart
