// PLACEHOLDER: replaced by the owner of codegen/zoo/ (delete this file).
#include "codegen/errors.hpp"
#include "codegen/input.hpp"
namespace arenaplan {
UsageProblem LoadZooProblem(const std::string& name, const InputOptions&) {
  throw InputError("zoo:" + name + ": the zoo is not built yet");
}
}  // namespace arenaplan
