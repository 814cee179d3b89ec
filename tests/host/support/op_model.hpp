// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Small .tflite models built in a test, and the whole `compile` path run on
// them: OneOpModel describes tensors and one operator and serializes them
// with model_builder.hpp's writer, its options table written by the test
// with the flatbuffers builder of the reader's schema (so the reader decodes
// the options too); CompileAndRun compiles the bytes with CompileModel,
// builds the generated files and a driver with the host compiler
// (-Wall -Wextra -Werror), runs Invoke() on an arena filled with a poison
// byte and returns the output bytes. With ARENAPLAN_WRITE_COMPILE_SEEDS set
// to a directory, every model compiled is also written there as NAME.tflite
// (the compile fuzz target's seeds, tests/fuzz/compile_seeds).
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_OP_MODEL_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_OP_MODEL_HPP_

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/test_util.hpp"
#include "tflite_subset_generated.h"

namespace arenaplan::testing_util {

/// One tensor of a OneOpModel. `type` is the schema's TensorType byte
/// (0 FLOAT32, 2 INT32, 3 UINT8, 7 INT16, 9 INT8); scale 0: no
/// quantization; non-empty `data`: a constant.
/// TensorSpec::type codes: the schema's TensorType values
/// (tflite::TensorType).
constexpr std::int8_t kF32 =
    static_cast<std::int8_t>(tflite::TensorType::kFloat32);
constexpr std::int8_t kI32 =
    static_cast<std::int8_t>(tflite::TensorType::kInt32);
constexpr std::int8_t kI64 =
    static_cast<std::int8_t>(tflite::TensorType::kInt64);
constexpr std::int8_t kI16 =
    static_cast<std::int8_t>(tflite::TensorType::kInt16);
constexpr std::int8_t kI8 = static_cast<std::int8_t>(tflite::TensorType::kInt8);

struct TensorSpec {
  std::vector<std::int32_t> shape;
  std::int8_t type = kI8;
  float scale = 0.0f;
  std::int64_t zero_point = 0;
  std::vector<std::uint8_t> data;
  /// Per-channel scales along `quantized_dimension` (zero points 0);
  /// when non-empty they replace `scale`.
  std::vector<float> channel_scales = {};
  std::int32_t quantized_dimension = 0;
};

/// Little-endian bytes of `v` (constant tensor data).
template <class T>
std::vector<std::uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

/// A model of one subgraph holding one operator.
struct OneOpModel {
  std::string name = "op";  ///< Used for the seed file name.
  std::vector<TensorSpec> tensors;
  std::vector<std::int32_t> graph_inputs, graph_outputs;
  tflite::BuiltinOp op = tflite::BuiltinOp::kAdd;
  std::vector<std::int32_t> op_inputs, op_outputs;
  /// Writes the operator's options table; returns its union type and
  /// offset. Empty: no options.
  std::function<
      std::pair<tflite::fb::BuiltinOptions, flatbuffers::Offset<void>>(
          flatbuffers::FlatBufferBuilder&)>
      options;

  /// The .tflite bytes (SerializeModel of model_builder.hpp, with this
  /// model's own options writer).
  [[nodiscard]] std::vector<std::uint8_t> Serialize() const {
    ModelBuilder b;
    for (const TensorSpec& s : tensors) {
      const auto type = static_cast<tflite::TensorType>(s.type);
      const std::int32_t t = s.data.empty()
                                 ? b.Tensor(s.shape, type, 0.0f)
                                 : b.Constant(s.shape, type, s.data, 0.0f);
      tflite::Quantization& q =
          b.graph().tensors[static_cast<std::size_t>(t)].quantization;
      q = {};
      if (!s.channel_scales.empty()) {
        q.scale = s.channel_scales;
        q.zero_point.assign(s.channel_scales.size(), 0);
        q.quantized_dimension = s.quantized_dimension;
      } else if (s.scale != 0.0f) {
        q.scale = {s.scale};
        q.zero_point = {s.zero_point};
      }
    }
    b.Op(op, op_inputs, op_outputs);
    return SerializeModel(
        b.Finish(graph_inputs, graph_outputs),
        [this](flatbuffers::FlatBufferBuilder& fbb, const tflite::Operator&) {
          return options ? options(fbb)
                         : std::pair{tflite::fb::BuiltinOptions::NONE,
                                     flatbuffers::Offset<void>(0)};
        });
  }
};

/// What CompileAndRun did: `error` holds the InputError of compile (then
/// nothing was run) or a build/run failure; `output` the graph outputs'
/// bytes concatenated in order.
struct RunResult {
  std::string error;
  std::vector<std::uint8_t> output;
};

/// The InputError message of compiling `m`, "" when it compiles.
inline std::string CompileError(const OneOpModel& m) {
  const std::vector<std::uint8_t> bytes = m.Serialize();
  try {
    compile::CompileOptions options;
    options.namespace_name = "m";
    options.input_sha256 = std::string(64, '0');
    (void)compile::CompileModel(tflite::ReadModel(bytes, m.name + ".tflite"),
                                m.name + ".tflite", options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// Compiles the .tflite `bytes` (file name `name`) with `options` (its
/// namespace is set to "m"), builds it and runs it on `input` (the graph
/// inputs' bytes concatenated in order) with every other arena byte set to
/// `poison`. `error` holds the InputError of compile, the text of any other
/// exception it threw (an internal error), or a build/run failure. With
/// ARENAPLAN_KEEP_RUNS set to a directory, each run's model, input and
/// output are kept there (to compare with another runtime by hand).
inline RunResult CompileAndRunBytes(const std::vector<std::uint8_t>& bytes,
                                    const std::string& name,
                                    const std::vector<std::uint8_t>& input,
                                    compile::CompileOptions options,
                                    std::uint8_t poison = 0xA5) {
  namespace fs = std::filesystem;
  compile::CompiledModel out;
  try {
    options.namespace_name = "m";
    options.input_sha256 = std::string(64, '0');
    out = compile::CompileModel(tflite::ReadModel(bytes, name), name, options);
  } catch (const InputError& e) {
    return {e.what(), {}};
  } catch (const std::exception& e) {
    return {std::string("compile threw: ") + e.what(), {}};
  }
  ScopedTempDir tmp("arenaplan_op_model_");
  const fs::path dir = tmp.path();
  WriteFile(dir / out.arena_header_name, out.arena_header);
  WriteFile(dir / out.model_header_name, out.model_header);
  WriteFile(dir / out.model_source_name, out.model_source);
  WriteFile(dir / "input.bin", std::string(input.begin(), input.end()));
  WriteFile(dir / "driver.cpp", R"(#include <cstdio>
#include <cstring>
#include <vector>
#include "m_model.hpp"
int main(int, char** argv) {
  static std::vector<unsigned char> storage(m::kArenaSize + m::kAlignment);
  unsigned char* p = storage.data();
  while (reinterpret_cast<std::size_t>(p) % m::kAlignment != 0) ++p;
  std::memset(p, )" + std::to_string(poison) +
                                    R"(, m::kArenaSize);
  std::FILE* in = std::fopen(argv[1], "rb");
  for (std::size_t i = 0; i < m::kInputCount; ++i) {
    if (std::fread(p + m::kPlan[m::kInputIndices[i]].offset, 1,
                   m::kInputSizes[i], in) != m::kInputSizes[i]) return 3;
  }
  std::fclose(in);
  m::Invoke(reinterpret_cast<std::int8_t*>(p));
  std::FILE* o = std::fopen(argv[2], "wb");
  for (std::size_t i = 0; i < m::kOutputCount; ++i) {
    std::fwrite(p + m::kPlan[m::kOutputIndices[i]].offset, 1,
                m::kOutputSizes[i], o);
  }
  std::fclose(o);
  return 0;
}
)");
  const CommandResult build =
      RunCommand(HostCompileCommand("c++17",
                                    "-O1 -ffp-contract=off -Wall -Wextra "
                                    "-Werror "
                                    "-DARENAPLAN_NO_ARENA_SECTION") +
                 "-I" ARENAPLAN_SOURCE_DIR "/kernels/include -I" +
                 dir.string() + " " + (dir / "driver.cpp").string() + " " +
                 (dir / out.model_source_name).string() + " -o " +
                 (dir / "driver").string());
  if (build.status != 0) return {"build failed: " + build.output, {}};
  const CommandResult run = RunCommand((dir / "driver").string() + " " +
                                       (dir / "input.bin").string() + " " +
                                       (dir / "output.bin").string());
  if (run.status != 0) return {"run failed: " + run.output, {}};
  const std::string o = ReadFile(dir / "output.bin");
  if (const char* keep = std::getenv("ARENAPLAN_KEEP_RUNS")) {
    // For a comparison with another runtime: the model, its input and
    // the output the compiled code gave, as NAME_PLAN.{tflite,in.bin,out.bin}.
    const fs::path base =
        fs::path(keep) / (fs::path(name).stem().string() + "_" +
                          std::to_string(out.plan.arena_bytes));
    WriteFile(base.string() + ".tflite",
              std::string(bytes.begin(), bytes.end()));
    WriteFile(base.string() + ".in.bin",
              std::string(input.begin(), input.end()));
    WriteFile(base.string() + ".out.bin", o);
  }
  return {"", std::vector<std::uint8_t>(o.begin(), o.end())};
}

/// How CompileAndRunBytes compiles in the common cases: `--overlap`,
/// `--fuse`.
struct RunOptions {
  bool overlap = false;
  bool fuse = false;
};

/// CompileAndRunBytes of the model NAME.tflite with `run`'s options.
inline RunResult CompileAndRunBytes(const std::vector<std::uint8_t>& bytes,
                                    const std::string& name,
                                    const std::vector<std::uint8_t>& input,
                                    RunOptions run,
                                    std::uint8_t poison = 0xA5) {
  compile::CompileOptions options;
  options.input.overlap = run.overlap;
  options.fuse = run.fuse;
  return CompileAndRunBytes(bytes, name + ".tflite", input, options, poison);
}

/// Compiles `m` (with `--overlap` when `overlap`), builds and runs it on
/// `input` (the graph inputs' bytes concatenated in order) with every other
/// arena byte set to `poison`.
inline RunResult CompileAndRun(const OneOpModel& m,
                               const std::vector<std::uint8_t>& input,
                               bool overlap = false,
                               std::uint8_t poison = 0xA5) {
  const std::vector<std::uint8_t> bytes = m.Serialize();
  if (const char* dir = std::getenv("ARENAPLAN_WRITE_COMPILE_SEEDS")) {
    WriteFile(std::filesystem::path(dir) / (m.name + ".tflite"),
              std::string(bytes.begin(), bytes.end()));
  }
  compile::CompileOptions options;
  options.input.overlap = overlap;
  return CompileAndRunBytes(bytes, m.name + ".tflite", input, options, poison);
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_OP_MODEL_HPP_
