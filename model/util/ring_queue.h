// A FIFO that keeps its storage: a ring over a vector whose size is a power
// of two, doubled when full, never shrunk.
//
// Why not std::deque: the model's queues (requests at a port, write-backs,
// fetched instructions, memory requests of the VGIW grid) fill and drain
// every few cycles, and a deque allocates and frees a chunk each time its
// ends cross one. A busy queue then costs a malloc and a free every few
// items (about 5% of a VGIW run), where a ring reuses the same memory.
//
// Elements are assigned into place, and a popped one is reset to T{} (so
// what it held, e.g. a shared_ptr, goes when it is popped, as from a deque):
// T must be default-constructible and copy- or move-assignable.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace simt::util {

template <class T>
class RingQueue {
 public:
  bool empty() const { return n_ == 0; }
  size_t size() const { return n_; }

  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return buf_[(head_ + n_ - 1) & mask_]; }
  const T& back() const { return buf_[(head_ + n_ - 1) & mask_]; }
  // The i-th element from the front (i < size()).
  T& operator[](size_t i) { return buf_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & mask_]; }

  void push_back(const T& v) { slot() = v; }
  void push_back(T&& v) { slot() = std::move(v); }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    T& s = slot();
    s = T{std::forward<Args>(args)...};
    return s;
  }
  void pop_front() {
    buf_[head_] = T{};
    head_ = (head_ + 1) & mask_;
    --n_;
  }
  void clear() {
    while (n_) pop_front();
    head_ = 0;
  }

 private:
  // The next free place at the back, counted as taken.
  T& slot() {
    if (n_ == buf_.size()) grow();
    T& s = buf_[(head_ + n_) & mask_];
    ++n_;
    return s;
  }
  void grow() {
    std::vector<T> b(buf_.empty() ? 8 : buf_.size() * 2);
    for (size_t i = 0; i < n_; ++i) b[i] = std::move(buf_[(head_ + i) & mask_]);
    buf_.swap(b);
    head_ = 0;
    mask_ = buf_.size() - 1;
  }

  std::vector<T> buf_;
  size_t head_ = 0, n_ = 0, mask_ = 0;
};

}  // namespace simt::util
