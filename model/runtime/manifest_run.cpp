// Runs a parsed manifest on a Device: fills the buffers and module variables,
// makes the texture and surface objects, runs the launches, loops and copies
// in order, and writes the outputs only once everything succeeded.
#include "runtime/manifest.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "util/error.h"
#include "util/output_file.h"
#include "util/rng.h"

namespace simt::runtime {

namespace fs = std::filesystem;

namespace {

void put(std::vector<uint8_t>& buf, uint64_t i, ElemType t, double v) {
  const uint32_t bytes = elem_bytes(t);
  uint8_t* p = buf.data() + i * bytes;
  switch (t) {
    case ElemType::F32: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); return; }
    case ElemType::F64: std::memcpy(p, &v, 8); return;
    default: {
      uint64_t bits = elem_is_signed(t) ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
      std::memcpy(p, &bits, bytes);
    }
  }
}

// The bytes to upload; empty for an all-zero fill (fresh device memory is
// zero and takes no host memory until touched).
std::vector<uint8_t> make_contents(const BufferSpec& b, const std::string& manifest) {
  const uint32_t bytes = elem_bytes(b.type);
  if (b.init.kind == BufferInit::Kind::Fill && b.init.bits == 0) return {};
  std::vector<uint8_t> buf(b.count * bytes, 0);
  const BufferInit& in = b.init;
  switch (in.kind) {
    case BufferInit::Kind::Fill:
      for (uint64_t i = 0; i < b.count; ++i) std::memcpy(buf.data() + i * bytes, &in.bits, bytes);
      break;
    case BufferInit::Kind::Iota:
      for (uint64_t i = 0; i < b.count; ++i) put(buf, i, b.type, in.start + static_cast<double>(i));
      break;
    case BufferInit::Kind::Random: {
      util::Rng rng(in.seed);
      for (uint64_t i = 0; i < b.count; ++i) {
        double v = elem_is_float(b.type)
                       ? in.min + (in.max - in.min) * rng.unit_double()
                       : static_cast<double>(rng.range(static_cast<int64_t>(in.min), static_cast<int64_t>(in.max)));
        put(buf, i, b.type, v);
      }
      break;
    }
    case BufferInit::Kind::File: {
      std::ifstream f(in.path, std::ios::binary);
      if (!f) throw input_error(manifest + ": buffer \"" + b.name + "\": cannot read " + in.path);
      f.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
      bool short_file = static_cast<uint64_t>(f.gcount()) != buf.size();
      char extra;
      bool long_file = !short_file && f.read(&extra, 1).gcount() == 1;
      if (short_file || long_file)
        throw input_error(manifest + ": buffer \"" + b.name + "\": " + in.path + " must hold exactly " +
                          std::to_string(buf.size()) + " bytes (" + std::to_string(b.count) + " x " +
                          elem_name(b.type) + ")");
      break;
    }
  }
  return buf;
}

}  // namespace

ManifestRun run_manifest(const Manifest& m, Device& dev, const std::string& out_dir) {
  // Read every input first so a bad file is reported before anything runs.
  std::map<std::string, uint64_t> addr;
  std::map<std::string, const BufferSpec*> spec;
  std::vector<std::vector<uint8_t>> contents, symbol_contents;
  for (const auto& b : m.buffers) contents.push_back(make_contents(b, m.file));
  for (const auto& b : m.symbols) symbol_contents.push_back(make_contents(b, m.file));
  if (m.malloc_heap_size) dev.set_malloc_heap_size(m.malloc_heap_size);
  Module& mod = dev.load_ptx_file(m.ptx_path);
  // Module variables by name, checked and filled before anything runs.
  std::map<std::string, uint64_t> symbol_addr;
  std::map<std::string, const BufferSpec*> symbol_spec;
  for (size_t i = 0; i < m.symbols.size(); ++i) {
    const BufferSpec& b = m.symbols[i];
    const std::string w = m.file + ": symbols[" + std::to_string(i) + "]";
    Device::Symbol sym;
    try {
      sym = dev.symbol(mod, b.name);
    } catch (const Error& e) {
      throw Error(e.code(), w + ".name: " + e.what());
    }
    const uint64_t bytes = b.count * elem_bytes(b.type);
    if (bytes > sym.bytes)
      throw input_error(w + ".count: " + std::to_string(b.count) + " " + elem_name(b.type) + " are " +
                        std::to_string(bytes) + " bytes; '" + b.name + "' holds " + std::to_string(sym.bytes));
    if (!symbol_contents[i].empty()) dev.copy_to_device(sym.addr, symbol_contents[i].data(), bytes);
    symbol_addr[b.name] = sym.addr;
    symbol_spec[b.name] = &b;
  }
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const auto& b = m.buffers[i];
    uint64_t a = dev.malloc(b.count * elem_bytes(b.type));
    if (!contents[i].empty()) dev.copy_to_device(a, contents[i].data(), contents[i].size());
    addr[b.name] = a;
    spec[b.name] = &b;
  }
  // The texture and surface objects, over the buffers just made.
  std::map<std::string, uint64_t> handle;
  for (const char* kind : {"textures", "surfaces"}) {
    const bool tex = kind[0] == 't';
    const auto& list = tex ? m.textures : m.surfaces;
    for (size_t i = 0; i < list.size(); ++i) {
      func::TextureDesc d = list[i].desc;
      d.layout.base = addr.at(list[i].buffer) + list[i].offset;
      const std::string w = m.file + ": " + kind + "[" + std::to_string(i) + "]";
      handle[std::string(kind) + ":" + list[i].name] =
          tex ? dev.create_texture(d, w) : dev.create_surface(func::SurfaceDesc{d.layout}, w);
    }
  }
  // Every output path is checked (and --out-dir created) before anything
  // runs: a bad one is input_error naming it. Each output is written to a
  // temporary and renamed into place only after every launch succeeded.
  std::vector<std::unique_ptr<util::OutputFile>> files;
  if (!m.outputs.empty()) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec || !fs::is_directory(out_dir))
      throw input_error("--out-dir " + out_dir + ": cannot create the folder" + (ec ? ": " + ec.message() : ""));
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const OutputSpec& o = m.outputs[i];
    fs::path target = fs::path(o.path).is_absolute() ? fs::path(o.path) : fs::path(out_dir) / o.path;
    // Sub-folders below --out-dir are created; a missing folder elsewhere is an error.
    if (!fs::path(o.path).is_absolute() && target.has_parent_path()) {
      std::error_code ec;
      fs::create_directories(target.parent_path(), ec);
    }
    files.push_back(std::make_unique<util::OutputFile>(m.file + ": outputs[" + std::to_string(i) + "]",
                                                       target.string()));
  }
  // The number of launches is known unless a loop runs until a flag.
  uint64_t known = 0;
  auto kernels = [](const std::vector<LaunchSpec>& steps) {
    return static_cast<uint64_t>(std::count_if(steps.begin(), steps.end(), [](const LaunchSpec& l) { return !l.is_copy; }));
  };
  for (const LaunchSpec& l : m.launches) {
    if (!l.repeat.empty() && !l.times) {
      known = 0;
      break;
    }
    known += l.repeat.empty() ? (l.is_copy ? 0 : 1) : kernels(l.repeat) * l.times;
  }
  dev.progress().set_launch_count(known);  // 0: unknown (the progress line shows no total)
  ManifestRun run;
  // A copy step: both ends resolved and bounds-checked, then copied through the host.
  auto copy = [&](const CopySpec& cp, const std::string& w) {
    auto place = [&](const CopySpec::End& e, const char* key, uint64_t& at, uint64_t& room) {
      if (!e.symbol) {
        const BufferSpec& b = *spec.at(e.name);
        at = addr.at(e.name) + e.offset;
        room = b.count * elem_bytes(b.type) - e.offset;
        return;
      }
      Device::Symbol sym;
      try {
        sym = dev.symbol(mod, e.name);
      } catch (const Error& err) {
        throw Error(err.code(), m.file + ": " + w + ".copy." + key + ".symbol: " + err.what());
      }
      if (e.offset >= sym.bytes)
        throw input_error(m.file + ": " + w + ".copy." + key + ".offset: " + std::to_string(e.offset) +
                          " is past the end of '" + e.name + "' (" + std::to_string(sym.bytes) + " bytes)");
      at = sym.addr + e.offset;
      room = sym.bytes - e.offset;
    };
    uint64_t from = 0, to = 0, from_room = 0, to_room = 0;
    place(cp.from, "from", from, from_room);
    place(cp.to, "to", to, to_room);
    const uint64_t bytes = cp.bytes ? cp.bytes : from_room;
    if (bytes > from_room || bytes > to_room)
      throw input_error(m.file + ": " + w + ".copy.bytes: " + std::to_string(bytes) + " bytes do not fit in '" +
                        (bytes > from_room ? cp.from.name : cp.to.name) + "' from its offset (" +
                        std::to_string(std::min(from_room, to_room)) + " left)");
    std::vector<uint8_t> data(bytes);
    dev.copy_to_host(data.data(), from, bytes);
    dev.copy_to_device(to, data.data(), bytes);
  };
  auto launch = [&](const LaunchSpec& l, const std::string& w) {
    if (l.is_copy) return copy(l.copy, w);
    KernelArgs args;
    for (const auto& a : l.args) {
      if (!a.texture.empty() || !a.surface.empty()) {
        args.push<uint64_t>(a.texture.empty() ? handle.at("surfaces:" + a.surface) : handle.at("textures:" + a.texture));
      } else if (!a.buffer.empty()) {
        args.push<uint64_t>(addr.at(a.buffer) + a.offset);
      } else if (a.align) {
        std::vector<uint8_t> bytes = a.bytes;
        for (const PointerField& p : a.pointers) {
          const uint64_t v = addr.at(p.buffer) + p.offset;
          std::memcpy(bytes.data() + p.at, &v, 8);
        }
        args.push_bytes(bytes.data(), bytes.size(), a.align);
      } else {
        uint32_t n = elem_bytes(a.type);
        args.push_bytes(&a.bits, n, n);
      }
    }
    try {
      run.launches.push_back(dev.launch(mod, l.kernel, l.grid, l.block, args, l.dynamic_shared_bytes, l.cooperative));
    } catch (const Error& e) {
      throw Error(e.code(), m.file + ": " + w + ": " + e.what());
    }
  };
  auto flag_bytes = [&](const FlagSpec& f) { return elem_bytes(spec.at(f.buffer)->type); };
  for (size_t i = 0; i < m.launches.size(); ++i) {
    const LaunchSpec& l = m.launches[i];
    const std::string w = "launches[" + std::to_string(i) + "]";
    if (l.repeat.empty()) {  // a launch or a copy
      launch(l, w);
      continue;
    }
    // The host's loop: set the flag, run the pass, copy the flag back.
    for (uint64_t pass = 0;; ++pass) {
      if (!l.times && pass == l.max)
        throw kernel_fault(m.file + ": " + w + ": the loop ran its " + std::to_string(l.max) + " passes (\"max\") and " +
                           l.until.buffer + "[0] still does not hold the value it waits for");
      if (!l.set.buffer.empty()) dev.copy_to_device(addr.at(l.set.buffer), &l.set.bits, flag_bytes(l.set));
      for (size_t k = 0; k < l.repeat.size(); ++k) launch(l.repeat[k], w + ".repeat[" + std::to_string(k) + "]");
      if (l.times) {
        if (pass + 1 == l.times) break;
        continue;
      }
      uint64_t v = 0;
      dev.copy_to_host(&v, addr.at(l.until.buffer), flag_bytes(l.until));
      if (v == l.until.bits) break;
    }
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const OutputSpec& o = m.outputs[i];
    const BufferSpec* b = (o.symbol ? symbol_spec : spec).at(o.buffer);
    std::string data(b->count * elem_bytes(b->type), '\0');
    dev.copy_to_host(data.data(), o.symbol ? symbol_addr.at(o.buffer) : addr.at(o.buffer), data.size());
    files[i]->write(data);
    run.written.push_back(files[i]->path());
  }
  return run;
}

}  // namespace simt::runtime
