// PLACEHOLDER: replaced by the owner of codegen/tflite/ (delete this file).
#include "codegen/errors.hpp"
#include "codegen/input.hpp"
namespace arenaplan {
UsageProblem LoadTfliteProblem(const std::string& path, const InputOptions&) {
  throw InputError(path + ": .tflite models are not supported yet");
}
}  // namespace arenaplan
