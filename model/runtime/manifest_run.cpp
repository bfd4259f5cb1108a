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
#include "util/output_paths.h"
#include "util/rng.h"

namespace simt::runtime {

namespace fs = std::filesystem;

namespace {

// A buffer's initial contents, made piece by piece in order, so staging
// needs one piece of host memory however large the buffer is. A file is
// opened (and a regular file's size checked) when this is made.
class Contents {
 public:
  Contents(const BufferSpec& b, const std::string& manifest) : b_(&b), manifest_(manifest), rng_(b.init.seed) {
    if (b.init.kind != BufferInit::Kind::File) return;
    file_.open(b.init.path, std::ios::binary);
    if (!file_) throw input_error(manifest + ": buffer \"" + b.name + "\": cannot read " + b.init.path);
    std::error_code ec;
    const fs::file_status st = fs::status(b.init.path, ec);
    if (fs::is_regular_file(st) && fs::file_size(b.init.path, ec) != bytes()) wrong_size();
  }

  uint64_t bytes() const { return b_->count * elem_bytes(b_->type); }
  // An all-zero fill: fresh device memory is zero and takes no host memory until touched.
  bool zero() const { return b_->init.kind == BufferInit::Kind::Fill && b_->init.bits == 0; }

  // The next `n` elements into `out`.
  void next(uint64_t n, uint8_t* out) {
    const BufferInit& in = b_->init;
    const uint32_t size = elem_bytes(b_->type);
    for (uint64_t k = 0; k < n && in.kind != BufferInit::Kind::File; ++k, ++i_) {
      uint8_t* p = out + k * size;
      if (in.kind == BufferInit::Kind::Fill) {
        std::memcpy(p, &in.bits, size);
      } else if (in.kind == BufferInit::Kind::Iota) {
        put(p, b_->type, in.start + static_cast<double>(i_));
      } else if (elem_is_float(b_->type)) {
        put(p, b_->type, in.min + (in.max - in.min) * rng_.unit_double());
      } else {
        put(p, b_->type, static_cast<double>(rng_.range(static_cast<int64_t>(in.min), static_cast<int64_t>(in.max))));
      }
    }
    if (in.kind != BufferInit::Kind::File) return;
    // A FIFO or device has no size to check first: short or long is found here.
    file_.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n * size));
    if (static_cast<uint64_t>(file_.gcount()) != n * size) wrong_size();
    i_ += n;
    char extra;
    if (i_ == b_->count && file_.read(&extra, 1).gcount() == 1) wrong_size();
  }

 private:
  static void put(uint8_t* p, ElemType t, double v) {
    switch (t) {
      case ElemType::F32: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); return; }
      case ElemType::F64: std::memcpy(p, &v, 8); return;
      default: {
        uint64_t bits = elem_is_signed(t) ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
        std::memcpy(p, &bits, elem_bytes(t));
      }
    }
  }
  [[noreturn]] void wrong_size() const {
    throw input_error(manifest_ + ": buffer \"" + b_->name + "\": " + b_->init.path + " must hold exactly " +
                      std::to_string(bytes()) + " bytes (" + std::to_string(b_->count) + " x " +
                      elem_name(b_->type) + ")");
  }

  const BufferSpec* b_;
  std::string manifest_;
  util::Rng rng_;
  std::ifstream file_;
  uint64_t i_ = 0;  // elements made so far
};

// Refuses (exit 5, before any is made) initialised buffers and symbols that
// cannot fit in the device memory the run may touch: each would take host
// memory for all its pages.
void check_fits(const Manifest& m, const std::vector<Contents>& bufs, const std::vector<Contents>& syms,
                const Device& dev) {
  const uint64_t limit = dev.memory().touch_limit();
  if (!limit) return;
  uint64_t need = 0, largest = 0;
  std::string largest_name;
  for (const char* kind : {"buffers", "symbols"}) {
    const bool is_buf = kind[0] == 'b';
    const auto& contents = is_buf ? bufs : syms;
    for (size_t i = 0; i < contents.size(); ++i) {
      if (contents[i].zero()) continue;
      need += contents[i].bytes();
      if (contents[i].bytes() > largest) {
        largest = contents[i].bytes();
        largest_name = std::string(kind) + "[" + std::to_string(i) + "] \"" +
                       (is_buf ? m.buffers : m.symbols)[i].name + "\"";
      }
    }
  }
  const uint64_t touched = dev.memory().bytes_touched();
  if (need > limit || touched + need > limit)
    throw resource_error(m.file + ": the initialised buffers need " + std::to_string(need) +
                         " bytes of device memory (the largest, " + largest_name + ", " + std::to_string(largest) +
                         "), more than the " + std::to_string(limit - std::min(limit, touched)) +
                         " bytes left of the most this run may touch (option --max-device-memory)");
}

// Uploads `c` to `addr` in pieces of at most `piece.size()` bytes (and at
// least one element).
void stage(Contents& c, uint32_t elem, Device& dev, uint64_t addr, std::vector<uint8_t>& piece) {
  const uint64_t per_piece = std::max<uint64_t>(1, piece.size() / elem);
  if (piece.size() < per_piece * elem) piece.resize(per_piece * elem);
  for (uint64_t done = 0, total = c.bytes() / elem; done < total;) {
    const uint64_t n = std::min(per_piece, total - done);
    c.next(n, piece.data());
    dev.copy_to_device(addr + done * elem, piece.data(), n * elem);
    done += n;
  }
}

}  // namespace

std::vector<std::string> output_targets(const Manifest& m, const std::string& out_dir,
                                        const ManifestRunOptions& opts) {
  std::vector<std::string> targets;
  std::vector<util::NamedOutput> named;
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const OutputSpec& o = m.outputs[i];
    const std::string w = m.file + ": outputs[" + std::to_string(i) + "].path";
    const std::string why = util::outside_reason(o.path, out_dir);
    if (!why.empty() && !opts.allow_outside_out_dir)
      throw input_error(w + ": " + o.path + " " + why + ": outputs must stay below --out-dir " + out_dir +
                        " (pass --allow-outside-out-dir if you trust this manifest)");
    const fs::path target = fs::path(o.path).is_absolute() ? fs::path(o.path) : fs::path(out_dir) / o.path;
    targets.push_back(target.string());
    named.push_back({w, target.string()});
  }
  util::refuse_shared_outputs(named);
  // Sub-folders below --out-dir are created; a missing folder elsewhere is an error.
  for (size_t i = 0; i < targets.size(); ++i) {
    const fs::path target(targets[i]);
    if (util::outside_reason(m.outputs[i].path, out_dir).empty() && target.has_parent_path()) {
      std::error_code ec;
      fs::create_directories(target.parent_path(), ec);
    }
  }
  return targets;
}

ManifestRun run_manifest(const Manifest& m, Device& dev, const std::string& out_dir, const ManifestRunOptions& opts) {
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
  const std::vector<std::string> targets = output_targets(m, out_dir, opts);
  for (size_t i = 0; i < targets.size(); ++i)
    files.push_back(std::make_unique<util::OutputFile>(m.file + ": outputs[" + std::to_string(i) + "]", targets[i]));
  // Every input file is opened (a regular file's size checked) before anything runs.
  std::map<std::string, uint64_t> addr;
  std::map<std::string, const BufferSpec*> spec;
  std::vector<Contents> contents, symbol_contents;
  contents.reserve(m.buffers.size());
  symbol_contents.reserve(m.symbols.size());
  for (const auto& b : m.buffers) contents.emplace_back(b, m.file);
  for (const auto& b : m.symbols) symbol_contents.emplace_back(b, m.file);
  if (m.malloc_heap_size) dev.set_malloc_heap_size(m.malloc_heap_size);
  Module& mod = dev.load_ptx_file(m.ptx_path);
  // Module variables by name, checked before anything is staged.
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
    symbol_addr[b.name] = sym.addr;
    symbol_spec[b.name] = &b;
  }
  check_fits(m, contents, symbol_contents, dev);
  // One piece of host memory stages every initial content in turn.
  uint64_t largest = 0;
  for (const auto* list : {&contents, &symbol_contents})
    for (const Contents& c : *list)
      if (!c.zero()) largest = std::max(largest, c.bytes());
  std::vector<uint8_t> piece(std::min(largest, opts.staging_bytes));
  for (size_t i = 0; i < m.symbols.size(); ++i)
    if (!symbol_contents[i].zero())
      stage(symbol_contents[i], elem_bytes(m.symbols[i].type), dev, symbol_addr.at(m.symbols[i].name), piece);
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const auto& b = m.buffers[i];
    uint64_t a = dev.malloc(b.count * elem_bytes(b.type));
    if (!contents[i].zero()) stage(contents[i], elem_bytes(b.type), dev, a, piece);
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
