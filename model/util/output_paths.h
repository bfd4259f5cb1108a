// Checks that compare output paths with each other or with a folder, made
// before a run writes anything (util::OutputFile checks each path alone):
//  - two outputs of one run that name the same file (`--stats x --csv ./x`,
//    a symlink to another output) would lose one of them: refused;
//  - a manifest's output must stay inside --out-dir, so a manifest from
//    someone else cannot overwrite any file the user can write.
// Paths are compared where a write would land: absolute, "." and ".."
// resolved, every symlink followed (a dangling one names the file it would
// create), as util::OutputFile follows them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace simt::util {

// Where a write to `path` lands. `stream` is set when the path leads into
// /proc (/dev/stdout): such a path is written in place, not replaced.
std::filesystem::path landing_place(const std::string& path, bool* stream = nullptr);

// Why `path`, taken relative to the folder `dir` unless absolute, could be
// written outside `dir` ("is an absolute path", "has a \"..\" component",
// "leads out of the folder through a symlink (to ...)"); "" when it cannot.
std::string outside_reason(const std::string& path, const std::string& dir);

// One output of a run: `name` says where it was given ("--stats",
// "m.json: outputs[1].path"), `path` is the file as it will be opened.
struct NamedOutput {
  std::string name, path;
};

// Throws simt::input_error (exit 2) naming both outputs when two of them
// land on the same file. Devices, FIFOs and streams (/dev/null,
// /dev/stdout) are written in place, appending, so they may be shared;
// empty paths (outputs not asked for) are skipped.
void refuse_shared_outputs(const std::vector<NamedOutput>& outputs);

}  // namespace simt::util
