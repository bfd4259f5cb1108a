#include "cudart/module_registry.h"

#include <algorithm>

#include "cudart/fatbin.h"
#include "ptx/merge.h"
#include "ptx/parser.h"
#include "util/error.h"

namespace simt::cudart {

FatbinRecord& ModuleRegistry::add_fatbin(const void* wrapper) {
  auto f = std::make_unique<FatbinRecord>();
  f->wrapper = wrapper;
  f->where = "fatbin #" + std::to_string(fatbins_.size() + 1);
  try {
    for (const FatbinContents& unit : read_wrapper(wrapper, f->where)) {
      const PtxImage& img = pick_ptx(unit, f->where);
      f->ptx.push_back(img.text);
      f->arch = std::max(f->arch, img.arch);
    }
  } catch (const Error& e) {
    f->error = e.what();
    f->ptx.clear();
  }
  fatbins_.push_back(std::move(f));
  return *fatbins_.back();
}

FatbinRecord* ModuleRegistry::fatbin(void** handle) {
  for (auto& f : fatbins_)
    if (handle_of(*f) == handle) return f.get();
  return nullptr;
}

void ModuleRegistry::add_kernel(void** handle, const void* host_fun, const char* device_name) {
  FatbinRecord* f = fatbin(handle);
  if (!f || !device_name) return;
  auto k = std::make_unique<KernelRecord>();
  k->fatbin = f;
  k->name = device_name;
  k->host_fun = host_fun;
  by_host_fun_[host_fun] = k.get();
  kernels_.push_back(std::move(k));
}

void ModuleRegistry::add_var(void** handle, const void* host_var, const char* device_name, uint64_t size,
                             bool constant, void** managed_ptr) {
  FatbinRecord* f = fatbin(handle);
  if (!f || !device_name) return;
  auto v = std::make_unique<VarRecord>();
  v->fatbin = f;
  v->name = device_name;
  v->host_var = host_var;
  v->size = size;
  v->constant = constant;
  v->managed_ptr = managed_ptr;
  by_host_var_[host_var] = v.get();
  vars_.push_back(std::move(v));
}

KernelRecord* ModuleRegistry::kernel(const void* host_fun) {
  auto it = by_host_fun_.find(host_fun);
  return it == by_host_fun_.end() ? nullptr : it->second;
}

VarRecord* ModuleRegistry::var(const void* host_var) {
  auto it = by_host_var_.find(host_var);
  return it == by_host_var_.end() ? nullptr : it->second;
}

std::vector<VarRecord*> ModuleRegistry::managed_vars() {
  std::vector<VarRecord*> out;
  for (auto& v : vars_)
    if (v->managed_ptr) out.push_back(v.get());
  return out;
}

runtime::Module& ModuleRegistry::load(FatbinRecord& f, runtime::Device& dev) {
  if (f.module) return *f.module;
  if (!f.error.empty()) throw input_error(f.error);
  try {
    std::vector<ptx::Module> units;
    for (size_t i = 0; i < f.ptx.size(); ++i) {
      const std::string name = f.where + (f.ptx.size() > 1 ? " unit " + std::to_string(i + 1) : "") + " (PTX)";
      units.push_back(ptx::parse(f.ptx[i], name));
    }
    f.module = &dev.load_module(ptx::merge_modules(std::move(units), f.where + " (PTX)"), f.where);
  } catch (const Error& e) {
    if (e.code() != ExitCode::BadInput) throw;
    f.error = e.what();
    throw;
  }
  return *f.module;
}

uint32_t ModuleRegistry::max_arch() const {
  uint32_t a = 0;
  for (const auto& f : fatbins_) a = std::max(a, f->arch);
  return a;
}

}  // namespace simt::cudart
