// Every file simtlab writes (--stats, --csv, --vcd, --trace-warps and a
// manifest's outputs) goes through OutputFile, so all of them behave alike:
//  - The path is checked when the object is made, before anything runs: a
//    missing folder, a folder given as the file, or a place that cannot be
//    written is simt::input_error (exit 2) naming the option and the path.
//  - A new name or an existing regular file is replaced atomically: the
//    content goes to a hidden temporary file in the same folder that
//    commit() renames over the target. A symlink is followed, so the link
//    stays a link and the file it points to is replaced.
//  - Anything else (a device such as /dev/full or /dev/null, a FIFO, a pipe
//    reached through /dev/stdout) is written in place, appending.
//  - Every write error is simt::output_error (exit 4); nothing is ignored.
//  - A temporary that was not committed is removed by the destructor and, on
//    a stop signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM, SIGUSR1 ...),
//    by the handler install_interrupt_cleanup() sets, so an interrupted or
//    failed run leaves no partial file under a final name and never
//    clobbers a previous one. The handler also says which outputs were
//    already complete when the signal came and which were not.
// Header-only, so model/stats and model/trace use it without linking
// simt_util; the checks that compare paths are util/output_paths.h.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>
#include <string>

#include "util/error.h"

namespace simt::util {

namespace output_detail {

// Every output of this process, for the signal handler: fixed slots of
// records made outside it, so the handler reads them without locks or
// allocation.
// A record stays after its file is complete (done), so an interrupt that
// comes later (while another output is renamed) can say it is in place.
struct Record {
  char* path;              // the final name, as given
  char* temp;              // the hidden temporary, or null (appended or written in place)
  std::atomic<bool> done;  // complete under its final name
};
constexpr int kMaxRecords = 256;
inline std::atomic<Record*> g_records[kMaxRecords];
// Signals that stop a run cleanly: every one whose default action ends the
// process without a core dump, and that a user, a terminal, a batch system
// or a closed pipe may send. SIGQUIT and the fault signals keep their core dump.
constexpr int kStopSignals[] = {SIGHUP, SIGINT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};

inline const char* signal_name(int sig) {
  switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    default: return "a signal";
  }
}

inline void free_record(Record* r) {
  std::free(r->path);
  std::free(r->temp);
  delete r;
}

// Lists a file; null when every slot is taken by a file still in progress
// (the destructor still removes its temporary; an interrupt cannot). A slot
// of a finished file is reused when no slot is free.
inline Record* enlist(const std::string& path, const std::string& temp) {
  Record* r = new (std::nothrow) Record{strdup(path.c_str()), temp.empty() ? nullptr : strdup(temp.c_str()), {false}};
  if (!r) return nullptr;
  for (auto& slot : g_records) {
    Record* expected = nullptr;
    if (slot.compare_exchange_strong(expected, r)) return r;
  }
  for (auto& slot : g_records) {
    Record* old = slot.load();
    if (old && old->done.load() && slot.compare_exchange_strong(old, r)) {
      free_record(old);
      return r;
    }
  }
  free_record(r);
  return nullptr;
}

// Forgets a file that was not completed (its temporary is gone).
inline void delist(Record* r) {
  if (!r) return;
  for (auto& slot : g_records) {
    Record* p = r;
    if (slot.compare_exchange_strong(p, nullptr)) break;
  }
  free_record(r);
}

inline void say(const char* s) {
  ssize_t ignored = ::write(2, s, std::strlen(s));
  (void)ignored;
}

// Lists the files that are (done) or are not complete under their final name.
inline bool say_files(bool done) {
  bool any = false;
  for (auto& slot : g_records) {
    const Record* r = slot.load();
    if (!r || r->done.load() != done) continue;
    say(any ? ", " : done ? "\nsimtlab: complete and in place (written before the interrupt): "
                          : "\nsimtlab: not written (a previous file keeps its contents): ");
    say(r->path);
    any = true;
  }
  return any;
}

// Removes every temporary, says which outputs are in place and which are
// not, and exits 128 + the signal's number (130 for SIGINT).
inline void on_interrupt(int sig) {
  for (auto& slot : g_records)
    if (const Record* r = slot.load(); r && !r->done.load() && r->temp) ::unlink(r->temp);
  say("\nsimtlab: interrupted by ");
  say(signal_name(sig));
  say(": stopped; temporary files removed");
  if (!say_files(true)) say(", no output written under its final name");
  say_files(false);
  say("\n");
  ::_exit(128 + sig);
}

// Holds the stop signals back while a file is renamed or appended to, so a
// signal lands before or after, never in the middle.
class BlockInterrupts {
 public:
  BlockInterrupts() {
    sigset_t s;
    sigemptyset(&s);
    for (int sig : kStopSignals) sigaddset(&s, sig);
    sigprocmask(SIG_BLOCK, &s, &old_);
  }
  ~BlockInterrupts() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
  BlockInterrupts(const BlockInterrupts&) = delete;
  BlockInterrupts& operator=(const BlockInterrupts&) = delete;

 private:
  sigset_t old_;
};

inline std::string errno_text(int e) { return std::strerror(e); }

}  // namespace output_detail

// Each stop signal (output_detail::kStopSignals: SIGINT, SIGTERM, SIGHUP,
// SIGPIPE, SIGALRM, SIGUSR1 ...) removes every listed temporary file, says
// which outputs were already complete and which were not, and exits with
// 128 + the signal's number (SIGINT: 130, simt::ExitCode::Interrupted).
// A signal the process was started with ignored (nohup's SIGHUP) stays
// ignored. Call once at startup.
inline void install_interrupt_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = output_detail::on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (int sig : output_detail::kStopSignals) sigaddset(&sa.sa_mask, sig);
  for (int sig : output_detail::kStopSignals) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

class OutputFile {
 public:
  enum class Mode {
    Replace,        // write() or a producer writes write_path(); commit() puts it in place
    ReplaceByName,  // as Replace, for a producer that needs a real file it opens by name
                    // (SystemC's VCD writer): devices and FIFOs get a staged copy
    Append,         // append() adds to the target in place (--csv)
  };

  // Checks `path` for `option` (e.g. "--stats"); throws input_error if it
  // cannot be written. `temp_suffix` ends the temporary's name (".vcd": SystemC
  // appends it to the name it is given).
  OutputFile(std::string option, std::string path, Mode mode = Mode::Replace, const std::string& temp_suffix = "")
      : option_(std::move(option)), path_(std::move(path)), mode_(mode) {
    namespace fs = std::filesystem;
    if (path_.empty()) bad("no file name given");
    bool stream = false;
    target_ = resolve_links(path_, &stream);
    std::error_code ec;
    const fs::file_status st = fs::status(target_, ec);
    if (fs::is_directory(st)) bad("is a folder; give a file name");
    if (fs::exists(st) && (stream || !fs::is_regular_file(st))) {
      if (fs::is_socket(st)) bad("is a socket, not a file");
      if (::access(target_.c_str(), W_OK) != 0) bad(output_detail::errno_text(errno));
      in_place_ = true;
    } else {
      const fs::path parent = fs::path(target_).has_parent_path() ? fs::path(target_).parent_path() : fs::path(".");
      const fs::file_status pst = fs::status(parent, ec);
      if (!fs::exists(pst)) bad("folder " + parent.string() + " does not exist");
      if (!fs::is_directory(pst)) bad(parent.string() + " is not a folder");
      if (fs::exists(st) && ::access(target_.c_str(), W_OK) != 0) bad(output_detail::errno_text(errno));
      existed_ = fs::exists(st);
      if (mode_ != Mode::Append) temp_ = make_temp(parent.string(), fs::path(target_).filename().string(),
                                                   temp_suffix, existed_ ? target_.c_str() : nullptr);
      else if (::access(parent.c_str(), W_OK | X_OK) != 0 && !existed_)
        bad("folder " + parent.string() + ": " + output_detail::errno_text(errno));
    }
    if (in_place_ && mode_ == Mode::ReplaceByName)
      temp_ = make_temp(fs::temp_directory_path().string(), "simtlab-stage", temp_suffix, nullptr);
    if (!record_) record_ = output_detail::enlist(path_, "");
  }

  ~OutputFile() { discard(); }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& option() const { return option_; }
  const std::string& path() const { return path_; }        // as given
  const std::string& target() const { return target_; }    // after following symlinks
  bool in_place() const { return in_place_; }              // a device or FIFO, written in place
  bool existed() const { return existed_; }                // a regular file was there before
  // Where the producer writes: the temporary, or the target itself in place.
  const std::string& write_path() const { return temp_.empty() ? target_ : temp_; }

  // The whole content at once, then commit().
  void write(const std::string& data) {
    if (mode_ == Mode::Append) throw internal_error("OutputFile::write on an append-mode file");
    const int fd = temp_.empty() ? ::open(target_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC)
                                 : ::open(temp_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) failed(errno);
    write_fd(fd, data.data(), data.size());
    if (::close(fd) != 0) failed(errno);
    commit();
  }

  // Adds `data` at the end of the target (created if new). A failed write is
  // undone (truncated back) so a regular file keeps its previous rows intact.
  void append(const std::string& data) {
    if (mode_ != Mode::Append) throw internal_error("OutputFile::append on a replace-mode file");
    output_detail::BlockInterrupts hold;
    const int fd = ::open(target_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) failed(errno);
    struct stat st {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    try {
      write_fd(fd, data.data(), data.size());
      if (::close(fd) != 0) failed(errno);
    } catch (...) {
      if (regular && existed_) {
        int ignored = ::truncate(target_.c_str(), st.st_size);
        (void)ignored;
      } else if (regular) {
        ::unlink(target_.c_str());
      }
      throw;
    }
    if (record_) record_->done = true;
  }

  // Puts what was written to write_path() under the final name: a rename, or
  // for a staged device/FIFO target a checked copy. Throws output_error.
  void commit() {
    if (committed_ || mode_ == Mode::Append) return;
    output_detail::BlockInterrupts hold;
    if (!temp_.empty()) {  // else it was written in place
      if (mode_ == Mode::ReplaceByName) check_not_full();
      if (in_place_) {
        copy_into_target();
        ::unlink(temp_.c_str());
      } else if (::rename(temp_.c_str(), target_.c_str()) != 0) {
        failed(errno);
      }
    }
    if (record_) record_->done = true;  // the interrupt handler now lists it as in place
    committed_ = true;
  }

  // Removes the temporary (nothing appears under the final name).
  void discard() {
    if (committed_ || (record_ && record_->done)) return;
    if (!temp_.empty()) ::unlink(temp_.c_str());
    output_detail::delist(record_);
    record_ = nullptr;
    committed_ = true;
  }

 private:
  [[noreturn]] void bad(const std::string& why) const { throw input_error(option_ + " " + path_ + ": " + why); }
  [[noreturn]] void failed(int e) const {
    throw output_error(option_ + " " + path_ + ": write failed: " + output_detail::errno_text(e));
  }

  // Follows symlinks by hand (a dangling link names the file to create). A
  // link into /proc (/dev/stdout -> /proc/self/fd/1) is a stream: it stays
  // as given and is written in place.
  static std::string resolve_links(const std::string& path, bool* stream) {
    namespace fs = std::filesystem;
    fs::path p(path);
    std::error_code ec;
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
      fs::path t = fs::read_symlink(p, ec);
      if (ec) break;
      fs::path next = t.is_absolute() ? t : p.parent_path() / t;
      if (next.lexically_normal().string().rfind("/proc/", 0) == 0) {
        *stream = true;
        return path;
      }
      p = next;
    }
    return p.string();
  }

  // Creates the temporary now, so a read-only folder is found before the run.
  std::string make_temp(const std::string& folder, const std::string& name, const std::string& suffix,
                        const char* mode_from) {
    static std::atomic<unsigned> serial{0};
    const std::string t = (std::filesystem::path(folder) /
                           ("." + name + ".simtlab-" + std::to_string(::getpid()) + "-" +
                            std::to_string(serial++) + suffix)).string();
    record_ = output_detail::enlist(path_, t);  // before the file exists, so an interrupt never misses it
    const int fd = ::open(t.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      const int e = errno;
      output_detail::delist(record_);
      record_ = nullptr;
      bad("cannot create a file in " + folder + ": " + output_detail::errno_text(e));
    }
    struct stat st {};
    if (mode_from && ::stat(mode_from, &st) == 0) {
      int ignored = ::fchmod(fd, st.st_mode & 07777);  // the replacement keeps the old file's permissions
      (void)ignored;
    }
    ::close(fd);
    return t;
  }

  void write_fd(int fd, const char* p, size_t n) const {
    while (n > 0) {
      const ssize_t w = ::write(fd, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        const int e = w < 0 ? errno : EIO;
        ::close(fd);
        failed(e);
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
  }

  void copy_into_target() const {
    const int in = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) failed(errno);
    const int out = ::open(target_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (out < 0) {
      const int e = errno;
      ::close(in);
      failed(e);
    }
    char buf[1 << 16];
    for (;;) {
      const ssize_t r = ::read(in, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) {
        const int e = errno;
        ::close(in);
        ::close(out);
        failed(e);
      }
      if (r == 0) break;
      try {
        write_fd(out, buf, static_cast<size_t>(r));
      } catch (...) {
        ::close(in);
        throw;
      }
    }
    ::close(in);
    if (::close(out) != 0) failed(errno);
  }

  // SystemC writes its VCD through its own stdio stream and never reports an
  // error; a file system left with no free block means it lost data.
  void check_not_full() const {
    struct statvfs vfs {};
    if (::statvfs(temp_.c_str(), &vfs) != 0) return;
    const auto free_blocks = ::geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail;
    if (vfs.f_blocks > 0 && free_blocks == 0) failed(ENOSPC);
  }

  std::string option_, path_, target_, temp_;
  Mode mode_;
  bool in_place_ = false, existed_ = false, committed_ = false;
  output_detail::Record* record_ = nullptr;  // this file in the interrupt handler's list
};

}  // namespace simt::util
