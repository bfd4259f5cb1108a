#include "workload.h"

#include <algorithm>

namespace simt::workloads {

const char* class_name(WorkloadClass c) {
  switch (c) {
    case WorkloadClass::Divergent: return "divergent";
    case WorkloadClass::Convergent: return "convergent";
    case WorkloadClass::Insensitive: return "warp-size-insensitive";
  }
  return "?";
}

const char* size_name(Size s) {
  switch (s) {
    case Size::Small: return "small";
    case Size::Medium: return "medium";
    case Size::Large: return "large";
  }
  return "?";
}

bool parse_size(const std::string& text, Size* out) {
  for (Size s : {Size::Small, Size::Medium, Size::Large})
    if (text == size_name(s)) { *out = s; return true; }
  return false;
}

static std::vector<Workload>& registry() {
  static std::vector<Workload> r;
  return r;
}

bool register_workload(const Workload& w) {
  auto& r = registry();
  r.push_back(w);
  std::sort(r.begin(), r.end(), [](const Workload& a, const Workload& b) {
    if (a.cls != b.cls) return a.cls < b.cls;
    return std::string(a.name) < b.name;
  });
  return true;
}

const std::vector<Workload>& all() { return registry(); }

const Workload* find(const std::string& name) {
  for (const auto& w : registry())
    if (name == w.name) return &w;
  return nullptr;
}

}  // namespace simt::workloads
