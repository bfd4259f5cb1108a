#include "elf_deps.h"

#include <elf.h>
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "util/error.h"

namespace simt::tb {

namespace {

// Reads checked byte ranges of one file.
class File {
 public:
  explicit File(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw input_error(path + ": cannot read: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      const int e = errno;
      ::close(fd_);
      throw input_error(path + ": cannot read: " + std::strerror(e));
    }
    size_ = S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0;
  }
  ~File() { ::close(fd_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  uint64_t size() const { return size_; }

  [[noreturn]] void malformed(const std::string& why) const {
    throw input_error(path_ + ": malformed ELF file: " + why);
  }

  // `size` bytes at `offset`, which must lie inside the file ("what" names
  // them in the error).
  std::string bytes(uint64_t offset, uint64_t size, const std::string& what) const {
    if (offset > size_ || size > size_ - offset)
      malformed(what + " (" + std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                ") runs past the end of the file (" + std::to_string(size_) + " bytes; truncated?)");
    std::string out(size, '\0');
    uint64_t done = 0;
    while (done < size) {
      const ssize_t n = ::pread(fd_, &out[done], size - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw input_error(path_ + ": cannot read: " + (n < 0 ? std::strerror(errno) : "file shrank"));
      done += static_cast<uint64_t>(n);
    }
    return out;
  }

  // Like bytes() for a table of `count` entries of `entsize` bytes, copied
  // into records of type T (the first sizeof(T) bytes of each entry).
  template <class T>
  std::vector<T> table(uint64_t offset, uint64_t count, uint64_t entsize, const std::string& what) const {
    if (count == 0) return {};
    if (entsize < sizeof(T)) malformed(what + ": entries of " + std::to_string(entsize) + " bytes, expected " +
                                       std::to_string(sizeof(T)));
    if (count > size_ / entsize)
      malformed(what + ": " + std::to_string(count) + " entries of " + std::to_string(entsize) +
                " bytes cannot fit in the file (" + std::to_string(size_) + " bytes; truncated?)");
    const std::string raw = bytes(offset, count * entsize, what);
    std::vector<T> out(count);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(&out[i], raw.data() + i * entsize, sizeof(T));
    return out;
  }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// The NUL-terminated string at `offset` of a string table.
std::string string_at(const File& f, const std::string& strtab, uint64_t offset, const std::string& what) {
  if (offset >= strtab.size()) f.malformed(what + ": name offset " + std::to_string(offset) + " outside its string table");
  const size_t end = strtab.find('\0', offset);
  if (end == std::string::npos) f.malformed(what + ": name not terminated inside its string table");
  return strtab.substr(offset, end - offset);
}

// Symbols that only CUDA's runtime defines; a program built with
// `-cudart shared` has them undefined (they are the library's).
const std::set<std::string>& cuda_runtime_symbols() {
  static const std::set<std::string> names = {
      "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaRegisterFunction", "__cudaPushCallConfiguration",
      "cudaLaunchKernel", "cudaMalloc", "cudaMemcpy", "cudaGetDeviceCount", "cudaDeviceSynchronize"};
  return names;
}

// DT_NEEDED, DT_RPATH and DT_RUNPATH through the program headers, as the
// dynamic loader reads them: PT_DYNAMIC, and DT_STRTAB (an address) mapped
// to the file by PT_LOAD.
void read_dynamic(const File& f, const std::vector<Elf64_Phdr>& phdrs, ElfDeps* out) {
  const Elf64_Phdr* dyn = nullptr;
  for (const auto& p : phdrs)
    if (p.p_type == PT_DYNAMIC) dyn = &p;
  if (!dyn) return;  // a static executable
  const std::vector<Elf64_Dyn> entries =
      f.table<Elf64_Dyn>(dyn->p_offset, dyn->p_filesz / sizeof(Elf64_Dyn), sizeof(Elf64_Dyn), "the dynamic section");
  std::vector<uint64_t> needed;
  uint64_t strtab_addr = 0, strtab_size = 0, rpath = 0, runpath = 0;
  bool have_strtab = false, have_rpath = false, have_runpath = false;
  for (const auto& d : entries) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) needed.push_back(d.d_un.d_val);
    if (d.d_tag == DT_STRTAB) strtab_addr = d.d_un.d_ptr, have_strtab = true;
    if (d.d_tag == DT_STRSZ) strtab_size = d.d_un.d_val;
    if (d.d_tag == DT_RPATH) rpath = d.d_un.d_val, have_rpath = true;
    if (d.d_tag == DT_RUNPATH) runpath = d.d_un.d_val, have_runpath = true;
  }
  if (needed.empty() && !have_rpath && !have_runpath) return;
  if (!have_strtab) f.malformed("DT_NEEDED or DT_RPATH entries but no DT_STRTAB");
  const Elf64_Phdr* seg = nullptr;
  for (const auto& p : phdrs)
    if (p.p_type == PT_LOAD && strtab_addr >= p.p_vaddr && strtab_addr - p.p_vaddr < p.p_filesz) seg = &p;
  if (!seg) f.malformed("the dynamic string table's address is in no loaded segment");
  const uint64_t offset = seg->p_offset + (strtab_addr - seg->p_vaddr);
  if (offset < seg->p_offset) f.malformed("the dynamic string table's offset overflows");
  const std::string strtab = f.bytes(offset, strtab_size, "the dynamic string table");
  for (uint64_t off : needed) out->needed.push_back(string_at(f, strtab, off, "DT_NEEDED"));
  if (have_rpath) out->rpath = string_at(f, strtab, rpath, "DT_RPATH");
  if (have_runpath) out->runpath = string_at(f, strtab, runpath, "DT_RUNPATH");
}

// Looks through .symtab and .dynsym for a defined CUDA runtime symbol, and
// through the section names for nvcc's fatbin sections.
void scan_sections(const File& f, const Elf64_Ehdr& eh, ElfDeps* out) {
  if (eh.e_shoff == 0) return;  // no section headers (sstrip): nothing more to learn
  uint64_t count = eh.e_shnum;
  uint32_t names_index = eh.e_shstrndx;
  if (count == 0 || names_index == SHN_XINDEX) {  // extended numbering: the real values are in section 0
    const auto first = f.table<Elf64_Shdr>(eh.e_shoff, 1, eh.e_shentsize, "section header 0");
    if (count == 0) count = first[0].sh_size;
    if (names_index == SHN_XINDEX) names_index = first[0].sh_link;
  }
  const auto shdrs = f.table<Elf64_Shdr>(eh.e_shoff, count, eh.e_shentsize, "the section headers");
  if (names_index != SHN_UNDEF && names_index < shdrs.size() && shdrs[names_index].sh_type != SHT_NOBITS) {
    const Elf64_Shdr& s = shdrs[names_index];
    const std::string names = f.bytes(s.sh_offset, s.sh_size, "the section name table");
    for (const auto& sh : shdrs) {
      if (sh.sh_name >= names.size()) continue;  // only a name we look for matters
      const std::string name = names.c_str() + sh.sh_name;
      if (name == ".nv_fatbin" || name == ".nvFatBinSegment") {
        out->cuda_fatbin_section = name;
        break;
      }
    }
  }
  for (const auto& sh : shdrs) {
    if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) continue;
    const std::string what = sh.sh_type == SHT_SYMTAB ? "the symbol table" : "the dynamic symbol table";
    if (sh.sh_link >= shdrs.size()) f.malformed(what + ": its string table is section " + std::to_string(sh.sh_link) +
                                                " of " + std::to_string(shdrs.size()));
    const Elf64_Shdr& str = shdrs[sh.sh_link];
    if (sh.sh_entsize == 0) f.malformed(what + ": entry size 0");
    const auto syms = f.table<Elf64_Sym>(sh.sh_offset, sh.sh_size / sh.sh_entsize, sh.sh_entsize, what);
    const std::string strtab = f.bytes(str.sh_offset, str.sh_size, what + "'s string table");
    for (const auto& s : syms) {
      if (s.st_shndx == SHN_UNDEF || s.st_name == 0) continue;
      const std::string name = string_at(f, strtab, s.st_name, what);
      if (cuda_runtime_symbols().count(name)) {
        out->cuda_runtime_symbol = name;
        return;
      }
    }
  }
}

}  // namespace

ElfDeps read_elf_deps(const std::string& path, bool symbols) {
  File f(path);
  ElfDeps out;
  if (f.size() < SELFMAG) return out;
  const std::string magic = f.bytes(0, SELFMAG, "the ELF magic");
  if (std::memcmp(magic.data(), ELFMAG, SELFMAG) != 0) return out;
  out.elf = true;
  const std::string ident = f.bytes(0, EI_NIDENT, "the ELF identification");
  // 64-bit little-endian only: the layout read below (CUDA 13 targets no other).
  if (ident[EI_CLASS] != ELFCLASS64 || ident[EI_DATA] != ELFDATA2LSB) return out;
  out.elf64 = true;
  Elf64_Ehdr eh;
  std::memcpy(&eh, f.bytes(0, sizeof eh, "the ELF header").data(), sizeof eh);
  uint64_t ph_count = eh.e_phnum;
  if (ph_count == PN_XNUM) {  // extended numbering: the count is in section 0's sh_info
    if (eh.e_shoff == 0) f.malformed("e_phnum is PN_XNUM but there are no section headers");
    ph_count = f.table<Elf64_Shdr>(eh.e_shoff, 1, eh.e_shentsize, "section header 0")[0].sh_info;
  }
  const auto phdrs = f.table<Elf64_Phdr>(eh.e_phoff, ph_count, eh.e_phentsize, "the program headers");
  read_dynamic(f, phdrs, &out);
  if (symbols) scan_sections(f, eh, &out);
  return out;
}

namespace {

bool regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// A search list ("a:b", also ';' as ld.so allows) with $ORIGIN expanded;
// entries with other dynamic string tokens ($LIB, $PLATFORM) are left out.
std::vector<std::string> search_dirs(const std::string& list, const std::string& origin) {
  std::vector<std::string> dirs;
  size_t start = 0;
  while (start < list.size()) {
    size_t end = list.find_first_of(":;", start);
    if (end == std::string::npos) end = list.size();
    std::string dir = list.substr(start, end - start);
    for (const std::string token : {"${ORIGIN}", "$ORIGIN"})
      for (size_t at = dir.find(token); at != std::string::npos; at = dir.find(token, at + origin.size()))
        dir.replace(at, token.size(), origin);
    if (!dir.empty() && dir.find('$') == std::string::npos) dirs.push_back(dir);
    start = end + 1;
  }
  return dirs;
}

// The folders of an ld.so.conf file and the files it includes.
void conf_dirs(const std::string& file, int depth, std::vector<std::string>* dirs) {
  if (depth > 8) return;  // an include cycle
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line.substr(0, line.find('#')));
    if (line.rfind("include", 0) == 0 && line.size() > 7 && std::isspace(static_cast<unsigned char>(line[7]))) {
      std::string pattern = trim(line.substr(8));
      if (!pattern.empty() && pattern[0] != '/')
        pattern = std::filesystem::path(file).parent_path().string() + "/" + pattern;
      glob_t g{};
      if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) conf_dirs(g.gl_pathv[i], depth + 1, dirs);
      ::globfree(&g);
    } else if (!line.empty() && line[0] == '/') {
      dirs->push_back(line);
    }
  }
}

const std::vector<std::string>& system_dirs() {
  static const std::vector<std::string> dirs = [] {
    std::vector<std::string> d;
    conf_dirs("/etc/ld.so.conf", 0, &d);
    for (const char* dir : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) d.push_back(dir);
    return d;
  }();
  return dirs;
}

}  // namespace

std::string find_needed_library(const std::string& name, const ElfDeps& from, const std::string& from_path) {
  if (name.find('/') != std::string::npos) return regular_file(name) ? name : "";
  std::error_code ec;
  const std::string origin = std::filesystem::weakly_canonical(from_path, ec).parent_path().string();
  std::vector<std::string> dirs;
  const auto add = [&](const std::vector<std::string>& more) { dirs.insert(dirs.end(), more.begin(), more.end()); };
  if (from.runpath.empty()) add(search_dirs(from.rpath, origin));
  if (const char* env = std::getenv("LD_LIBRARY_PATH")) add(search_dirs(env, origin));
  add(search_dirs(from.runpath, origin));
  add(system_dirs());
  for (const std::string& dir : dirs)
    if (regular_file(dir + "/" + name)) return dir + "/" + name;
  return "";
}

}  // namespace simt::tb
