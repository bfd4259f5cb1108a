// Several parsed PTX modules -> one, as nvlink links the translation units of
// an `nvcc -rdc=true` program: a kernel in one unit may call a .func or use a
// .global/.const variable that another unit defines (and the first declares
// .extern). The result is an ordinary Module, so the loader and ptx::link()
// work on it unchanged.
//
// Linkage, after the PTX ISA's "Linking directives" (.extern, .visible,
// .weak, .common), for every module-scope name (functions and variables):
//   - .visible: defined once in the whole program; a second .visible
//     definition is an error naming both units.
//   - .weak: chosen only when no unit has a .visible definition; among
//     several .weak definitions the first unit's wins.
//   - .common (.global variables only): several units may define it, with
//     different types and sizes; the largest wins. At most one may have an
//     initialiser, and it must be the largest, else an error. A .visible
//     definition wins over .common ones, .common ones over .weak ones.
//   - .extern (and a function prototype without a body): resolved by the
//     chosen definition and dropped; with no definition anywhere the first
//     declaration stays (e.g. vprintf, malloc, which the executor provides;
//     an `extern .shared` dynamic array, with the largest .align declared).
//   - A name that is a function in one unit and a variable in another, or a
//     variable in two state spaces, is an error.
//   - No directive: internal to its unit (nvcc's `$str` printf formats,
//     static __device__ functions and variables, anonymous namespaces). Each
//     unit keeps its own; where the name is also used in another unit, the
//     later units' copies (and any whose name an external symbol owns) are
//     renamed to `<name>$u<unit index>` and every reference in their unit
//     follows (Function::symbols/symrefs, call sites, address initialisers).
// Result: .version the highest of the units', .target theirs (the highest
// sm_NN when they differ), Module::path = `name`.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "ptx/ir.h"

namespace simt::ptx {

// Per unit: old name -> new name of each internal symbol that was renamed.
using Renames = std::unordered_map<std::string, std::string>;

// Links `units` into one module named `name` (used in messages). One unit is
// returned unchanged; none gives an empty module. `renamed`, if given,
// receives one Renames per unit (what a host-side name of that unit, e.g. a
// static __device__ variable's, is called in the result). Throws
// simt::Error(BadInput) for conflicting definitions.
Module merge_modules(std::vector<Module> units, const std::string& name, std::vector<Renames>* renamed = nullptr);

}  // namespace simt::ptx
