#include "util/output_paths.h"

#include <algorithm>

#include "util/error.h"

namespace simt::util {

namespace fs = std::filesystem;

namespace {

// weakly_canonical, or the lexical form when the file system cannot answer.
fs::path settle(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec || c.empty() ? p.lexically_normal() : c;
}

bool within(const fs::path& p, const fs::path& dir) {
  auto d = dir.begin(), q = p.begin();
  for (; d != dir.end() && !d->empty(); ++d, ++q)
    if (q == p.end() || *q != *d) return false;
  return true;
}

}  // namespace

fs::path landing_place(const std::string& path, bool* stream) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) p = path;
  // The folder part is resolved by the file system (its symlinks, then
  // ".."); the last part is followed link by link, as a write follows it.
  for (int hops = 0; hops < 40; ++hops) {
    const fs::path name = p.filename();
    if (name.empty() || name == "." || name == "..") return settle(p);  // a folder
    const fs::path dir = settle(p.parent_path());
    p = dir / name;
    if (within(dir, "/proc")) {  // /dev/stdout, /dev/fd/N: a process's stream
      if (stream) *stream = true;
      return p;
    }
    if (!fs::is_symlink(fs::symlink_status(p, ec))) break;
    const fs::path t = fs::read_symlink(p, ec);
    if (ec) break;
    p = t.is_absolute() ? t : dir / t;
  }
  return p;
}

std::string outside_reason(const std::string& path, const std::string& dir) {
  const fs::path p(path);
  if (p.is_absolute()) return "is an absolute path";
  // Any "..", even one that would come back inside: the file system resolves
  // it after the symlinks before it, so only a path without one is plain.
  for (const fs::path& part : p)
    if (part == "..") return "has a \"..\" component";
  const fs::path root = landing_place(dir);
  const fs::path lands = landing_place((fs::path(dir) / p).string());
  if (!within(lands, root)) return "leads out of the folder through a symlink (to " + lands.string() + ")";
  return "";
}

void refuse_shared_outputs(const std::vector<NamedOutput>& outputs) {
  std::vector<std::pair<fs::path, const NamedOutput*>> seen;
  for (const NamedOutput& o : outputs) {
    if (o.path.empty()) continue;
    bool stream = false;
    const fs::path at = landing_place(o.path, &stream);
    std::error_code ec;
    const fs::file_status st = fs::status(at, ec);
    if (stream || (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st))) continue;
    auto same = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == at; });
    if (same != seen.end())
      throw input_error(same->second->name + " " + same->second->path + " and " + o.name + " " + o.path +
                        " are the same file (" + at.string() +
                        "): one output would overwrite the other; give each its own file");
    seen.emplace_back(at, &o);
  }
}

}  // namespace simt::util
