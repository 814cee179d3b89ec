// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The generated files' text around the lowered operators: the model header
// (graph input/output, constant and state sizes, Invoke/ResetState) and the
// source (constant pool, state buffers, Invoke's body from the Lowerer).
#include "codegen/compile/generate.hpp"

#include <cinttypes>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "arenaplan/kernels/headers_digest.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/compile/fused_body.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/profile.hpp"
#include "codegen/compile/trace_schedule.hpp"
#include "codegen/emit/cpp_text.hpp"
#include "codegen/emit/header.hpp"
#include "codegen/emit/regions.hpp"
#include "codegen/emit/sha256.hpp"
#include "codegen/fuse/fuse.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/scratch/kernel_scratch.hpp"
#include "codegen/tflite/const_fold.hpp"
#include "codegen/tflite/fold.hpp"
#include "codegen/tflite/fold_model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/trace/check.hpp"

namespace arenaplan::compile {
namespace {

using tflite::ShapeText;
using tflite::Tensor;
using tflite::TensorType;

/// A float literal that reads back as `v` (finite): nine significant
/// digits, with ".0" added when %g prints an integer ("1" -> "1.0f"; "1f"
/// is not a literal).
std::string FloatLiteral(float v) {
  std::string text = Fmt("%.9g", static_cast<double>(v));
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text + "f";
}

std::string BaseName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Why `stem` cannot start the generated file names (it appears in
/// #include "..." lines, where no escape exists), or "".
std::string StemProblem(const std::string& stem) {
  if (stem.empty() || stem.size() > 100) return "must be 1 to 100 characters";
  for (char c : stem) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.')) {
      return "may hold only ASCII letters, digits, '_', '-' and '.'";
    }
  }
  if (stem[0] == '.' || stem[0] == '-') return "must not start with '.' or '-'";
  return "";
}

/// The file name stem of `options` (the namespace with "::" as "_" when
/// --stem is not given); InputError for a bad stem.
std::string FileStem(const CompileOptions& options) {
  std::string stem = options.file_stem;
  if (stem.empty()) {
    for (char c : options.namespace_name) stem += c == ':' ? '_' : c;
    while (stem.find("__") != std::string::npos) stem.erase(stem.find("__"), 1);
  }
  if (const std::string why = StemProblem(stem); !why.empty()) {
    throw InputError("--stem '" + TerminalText(stem) + "': " + why);
  }
  return stem;
}

/// Plans `problem` into `out`: across the regions when there are two or
/// more, else one arena (one region: as without regions, within its
/// capacity).
void PlanArena(const UsageProblem& problem, const CompileOptions& options,
               CompiledModel& out) {
  const bool regions = options.regions.size() >= 2;
  if (regions) {
    out.region_plan = PlanRegions(problem, options.regions, options.plan,
                                  options.region_search);
    out.plan.problem = out.region_plan->problem;
    out.plan.strategy = "regions";
    out.plan.alignment = out.region_plan->alignment;
    out.plan.lower_bound = out.region_plan->lower_bound;
    out.plan.naive_bytes = out.region_plan->naive_bytes;
    for (std::uint64_t b : out.region_plan->region_bytes) {
      out.plan.arena_bytes += b;
    }
  } else if (options.regions.size() == 1) {
    // What planning without regions plans (the smallest arena the search
    // finds: with a capacity it stops at any plan that fits), and only when
    // that exceeds the region, a plan within its capacity (or the error
    // that there is none).
    out.plan = Plan(problem, options.plan);
    if (out.plan.arena_bytes > options.regions[0].capacity) {
      PlanOptions one = options.plan;
      one.capacity = options.regions[0].capacity;
      out.plan = Plan(problem, one);
    }
  } else {
    out.plan = Plan(problem, options.plan);
  }
}

/// Every graph input and output (1 to 64 of each): planned, and float32
/// (quantized by a QUANTIZE / produced by a DEQUANTIZE inside the graph;
/// the firmware takes and returns the bytes) or int8, uint8, int16 or int32
/// with one finite scale, or int32 without quantization (plain integers);
/// InputError otherwise.
void CheckGraphIo(const tflite::Subgraph& sg, const Lowerer& gen,
                  const std::string& path) {
  if (sg.inputs.empty() || sg.outputs.empty() || sg.inputs.size() > 64 ||
      sg.outputs.size() > 64) {
    throw InputError(path +
                     ": compile supports 1 to 64 graph inputs and outputs");
  }
  std::vector<std::int32_t> edge;
  for (std::int32_t t : sg.inputs) {
    (void)gen.RecordOf(t, "graph input");
    edge.push_back(t);
  }
  for (std::int32_t t : sg.outputs) {
    (void)gen.RecordOf(t, "graph output");
    edge.push_back(t);
  }
  for (std::int32_t i : edge) {
    const Tensor& t = sg.tensors[static_cast<std::size_t>(i)];
    if (t.type == TensorType::kFloat32) continue;
    // Plain int32 values (e.g. TRANSPOSE_CONV's output shape as an input).
    if (t.type == TensorType::kInt32 && t.quantization.scale.empty() &&
        t.quantization.zero_point.empty()) {
      continue;
    }
    if ((t.type != TensorType::kInt8 && t.type != TensorType::kInt16 &&
         t.type != TensorType::kInt32 && t.type != TensorType::kUint8) ||
        t.quantization.scale.size() != 1 ||
        t.quantization.zero_point.size() != 1 ||
        !std::isfinite(t.quantization.scale[0])) {
      throw InputError(TerminalText(path) + ": graph input/output '" +
                       TerminalText(t.name) +
                       "' must be float32, or int8, uint8, int16 or int32 "
                       "with per-tensor quantization (one finite scale)");
    }
  }
}

/// The model header's constants of the graph input or output `t` (plan
/// record `record`); `which` is "input" or "output".
std::string IoConstants(const tflite::Subgraph& sg, const char* which,
                        std::int64_t record, const Tensor& t) {
  const bool real = t.type == TensorType::kFloat32;
  // An unquantized int32 tensor holds plain integers: scale 1, zero point 0.
  const bool plain = !real && t.quantization.scale.empty();
  const char* ctype = Lowerer::CType(t.type);
  const std::int64_t elem = t.type == TensorType::kInt8    ? 1
                            : t.type == TensorType::kUint8 ? 1
                            : t.type == TensorType::kInt16 ? 2
                                                           : 4;
  std::string h = std::string("/// Graph ") + which + ": tensor " +
                  std::to_string(&t - sg.tensors.data()) + " '" +
                  CommentText(t.name) + "', " + tflite::TensorTypeName(t.type) +
                  " " + ShapeText(t.shape) +
                  (real    ? ", real values (IEEE single, the target's byte "
                             "order).\n"
                   : plain ? ", plain integers (scale 1, zero point 0).\n"
                           : ", real = scale * (q - zero_point).\n");
  const char* cap = std::strcmp(which, "input") == 0 ? "Input" : "Output";
  h += Fmt("inline constexpr std::size_t k%sIndex = %" PRId64
           ";  ///< In kPlan.\n",
           cap, record);
  h += Fmt("using %sElement = %s;\n", cap, ctype);
  h += Fmt("inline constexpr std::size_t k%sElements = %" PRId64 ";\n", cap,
           ElementCount(t));
  h += Fmt("inline constexpr std::size_t k%sBytes = %" PRId64 ";\n", cap,
           ElementCount(t) * elem);
  if (real) return h + "\n";
  h += Fmt("inline constexpr float k%sScale = %s;\n", cap,
           plain ? "1.0f" : FloatLiteral(t.quantization.scale[0]).c_str());
  h += Fmt("inline constexpr std::int32_t k%sZeroPoint = %d;\n\n", cap,
           plain ? 0 : static_cast<int>(t.quantization.zero_point[0]));
  return h;
}

/// The model header's list of every graph input (`is_input`) or output in
/// the model's order: kPlan indices, bytes, and their total, which is
/// `make run`'s INPUT or OUTPUT (the bytes concatenated in order).
std::string IoListConstants(const tflite::Subgraph& sg, const Lowerer& gen,
                            const tflite::TfliteProblem& problem,
                            bool is_input) {
  const std::vector<std::int32_t>& tensors = is_input ? sg.inputs : sg.outputs;
  const char* cap = is_input ? "Input" : "Output";
  const char* lower = is_input ? "input" : "output";
  std::string h = Fmt(
      "/// Every graph %s in the model's order: its kPlan index and bytes.\n",
      lower);
  std::string indices, sizes;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = sg.tensors[static_cast<std::size_t>(tensors[i])];
    const std::int64_t bytes =
        problem.tensors[static_cast<std::size_t>(tensors[i])].bytes;
    h += Fmt("///   %zu: tensor %d '", i, tensors[i]) + CommentText(t.name) +
         "', " + tflite::TensorTypeName(t.type) + " " + ShapeText(t.shape) +
         "\n";
    if (i > 0) {
      indices += ", ";
      sizes += ", ";
    }
    indices += std::to_string(
        gen.RecordOf(tensors[i], is_input ? "graph input" : "graph output"));
    sizes += std::to_string(bytes);
    total += bytes;
  }
  h += Fmt("inline constexpr std::size_t k%sCount = %zu;\n", cap,
           tensors.size());
  h += Fmt("inline constexpr std::size_t k%sIndices[] = {", cap) + indices +
       "};\n";
  h += Fmt("inline constexpr std::size_t k%sSizes[] = {", cap) + sizes + "};\n";
  h += Fmt("/// `make run`'s %s: the %ss' bytes concatenated in order.\n",
           is_input ? "INPUT" : "OUTPUT", lower);
  h += Fmt("inline constexpr std::size_t k%sTotalBytes = %" PRId64 ";\n\n", cap,
           total);
  return h;
}

/// The text of STEM_model.hpp after `banner`.
std::string ModelHeader(const tflite::Subgraph& sg, const Lowerer& gen,
                        const tflite::TfliteProblem& problem,
                        const CompiledModel& out, const std::string& ns,
                        const std::string& profile_table) {
  std::string h =
      "//\n// Ahead-of-time integer inference: Invoke() runs every operator of "
      "the model\n"
      "// with arenaplan's kernels, each activation at its planned offset in "
      "the\n"
      "// arena (" +
      out.arena_header_name + "), the constants in flash.\n";
  const std::string guard =
      IncludeGuard("ARENAPLAN_GENERATED_", out.model_header_name);
  h += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  h += "#include <cstddef>\n#include <cstdint>\n\n#include \"" +
       out.arena_header_name + "\"\n\nnamespace " + ns + " {\n\n";
  h += IoConstants(sg, "input", gen.RecordOf(sg.inputs[0], "graph input"),
                   sg.tensors[static_cast<std::size_t>(sg.inputs[0])]);
  h += IoConstants(sg, "output", gen.RecordOf(sg.outputs[0], "graph output"),
                   sg.tensors[static_cast<std::size_t>(sg.outputs[0])]);
  // All of them (the first is also kInputIndex / kOutputIndex above).
  h += IoListConstants(sg, gen, problem, true);
  h += IoListConstants(sg, gen, problem, false);
  h +=
      Fmt("/// Bytes of the constant arrays (weights, biases, requantization\n"
          "/// parameters, tables) Invoke() reads from flash.\n"
          "inline constexpr std::size_t kConstantBytes = %" PRIu64 ";\n\n",
          out.constant_bytes);
  // A stateless model keeps the short text; a stateful one (SVDF, LSTM)
  // says how long its state lives.
  const bool stateful = gen.StateBytes() != 0;
  h +=
      Fmt("%s"
          "inline constexpr std::size_t kStateBytes = %" PRIu64 ";\n\n",
          stateful
              ? "/// Bytes of persistent state (variable tensors: an SVDF's "
                "memory, an\n"
                "/// LSTM's hidden and cell state) kept outside the arena in "
                "static\n"
                "/// buffers (RAM). It starts as TFLM's ResetVariableTensors "
                "leaves it\n"
                "/// (int8 state at its zero point, other state 0) and lives "
                "across\n"
                "/// calls: each Invoke() continues from what the previous one "
                "left.\n"
              : "/// Bytes of persistent state (variable tensors, e.g. SVDF "
                "memory)\n"
                "/// kept outside the arena in static buffers (RAM, zero at "
                "start-up).\n",
          gen.StateBytes());
  h += profile_table;
  h += "/// Runs operators 0 .. kOperatorCount - 1 in order. `arena` "
       "(borrowed)\n"
       "/// points to kArenaSize bytes aligned to kAlignment; the input is "
       "read\n"
       "/// at arena + kPlan[kInputIndex].offset, the output written at\n"
       "/// arena + kPlan[kOutputIndex].offset. No heap; the only other "
       "memory\n"
       "/// written is the kStateBytes of persistent state.\n"
       "void Invoke(std::int8_t* arena);\n\n" +
       std::string(stateful
                       ? "/// Sets the persistent state back to its initial "
                         "value, as at\n"
                         "/// start-up (call it before an unrelated input "
                         "sequence).\n"
                       : "/// Sets the persistent state back to its initial "
                         "value (zero), as at\n"
                         "/// start-up; does nothing when kStateBytes is "
                         "0.\n") +
       "void ResetState();\n\n}  // namespace " + ns + "\n\n#endif  // " +
       guard + "\n";
  return h;
}

/// The text of STEM_model.cpp after `banner`.
std::string ModelSource(const Lowerer& gen, const CompiledModel& out,
                        const std::string& ns, bool regions,
                        const std::string& body) {
  std::string s = "#include \"" + out.model_header_name +
                  "\"\n\n#include \"arenaplan/kernels/kernels.hpp\"\n";
  if (body.find("k::RunResolved<") != std::string::npos) {
    s += "#include \"arenaplan/kernels/fused.hpp\"\n";
  }
  s += ProfileMacroText();
  s += "\n";
  s += "namespace " + ns +
       " {\nnamespace {\n\nnamespace k = ::arenaplan::kernels;\n\n";
  // Compiled against the headers this generator was built with, or not at
  // all (kernels/include/arenaplan/kernels/headers_digest.hpp).
  s += "static_assert(k::HeadersDigestIs(\"" +
       std::string(kernels::kHeadersDigest) +
       "\"),\n              \"arenaplan: this code was generated for other "
       "kernel headers; generate it again with the arenaplan of these "
       "headers\");\n\n";
  s += gen.Constants();
  if (!gen.States().empty()) s += "\n" + gen.States();
  s += "\n}  // namespace\n\nvoid Invoke(std::int8_t* arena) {\n";
  if (regions) s += "  (void)arena;  // every tensor is in its memory region\n";
  s += body;
  s += "}\n\nvoid ResetState() {\n" + gen.Reset() + "}\n\n}  // namespace " +
       ns + "\n";
  return s;
}

/// The exact (unaligned) bytes of every record of the problem planned:
/// `fused`'s records when not null, else each tensor's bytes (a scratch
/// record's own size).
std::vector<std::uint64_t> ExactBytes(const tflite::TfliteProblem& problem,
                                      const fuse::FusePlan* fused) {
  std::vector<std::uint64_t> bytes;
  if (fused != nullptr) {
    for (const TensorUsageRecord& r : fused->problem.records) {
      bytes.push_back(r.size);
    }
    return bytes;
  }
  for (std::size_t r = 0; r < problem.record_tensor.size(); ++r) {
    const std::int32_t t = problem.record_tensor[r];
    bytes.push_back(t >= 0 ? problem.tensors[static_cast<std::size_t>(t)].bytes
                           : problem.problem.records[r].size);
  }
  return bytes;
}

/// Per operator of the model lowered: its kernel scratch record in the
/// problem planned and its bytes. With `fused`: the fused problem's record
/// of the same id, or, for an operator of a segment whose scratch was
/// dropped, the record its segment's operators share (fuse.hpp).
std::vector<ScratchRecord> ScratchRecords(const tflite::TfliteProblem& problem,
                                          const fuse::FusePlan* fused) {
  const UsageProblem& p = problem.problem;
  std::vector<ScratchRecord> out(p.operator_count);
  for (std::size_t r = 0; r < p.records.size(); ++r) {
    if (problem.record_tensor[r] >= 0) continue;
    std::int64_t record = static_cast<std::int64_t>(r);
    std::uint64_t bytes = p.records[r].size;
    if (fused != nullptr) {
      record = -1;
      for (std::size_t q = 0; q < fused->problem.ids.size(); ++q) {
        if (fused->problem.ids[q] == p.ids[r]) {
          record = static_cast<std::int64_t>(q);
        }
      }
    }
    out.at(p.records[r].first_op) = {record, bytes};
  }
  if (fused == nullptr) return out;
  // A segment's operators without a record of their own: the one kept by
  // an operator of the same segment (the largest of the segment's).
  const auto segment = [&](std::size_t k) {
    for (std::size_t s = 0; s < fused->step_first_op.size(); ++s) {
      if (k >= fused->step_first_op[s] && k <= fused->step_last_op[s]) {
        return fused->step_segment[s];
      }
    }
    return std::int32_t{-1};
  };
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k].bytes == 0 || out[k].record >= 0 || segment(k) < 0) continue;
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j].record >= 0 && out[j].bytes >= out[k].bytes &&
          segment(j) == segment(k)) {
        out[k] = out[j];
      }
    }
  }
  return out;
}

/// The tensor of each record of the fused problem (-1: a ring or a
/// scratch record), then every tensor the fused plan does not place (made
/// inside a segment; its lowered call is replaced), each once.
std::vector<std::int32_t> FusedRecordTensors(
    const tflite::TfliteProblem& problem, const fuse::FusePlan& fused,
    std::size_t tensor_count) {
  std::vector<std::int32_t> out(fused.problem.records.size(), -1);
  std::vector<bool> placed(tensor_count, false);
  for (std::size_t r = 0; r < fused.problem.ids.size(); ++r) {
    for (std::int32_t t : problem.record_tensor) {
      if (t >= 0 && fused.problem.ids[r] == std::to_string(t)) {
        out[r] = t;
        placed[static_cast<std::size_t>(t)] = true;
      }
    }
  }
  for (std::int32_t t : problem.record_tensor) {
    if (t >= 0 && !placed[static_cast<std::size_t>(t)]) out.push_back(t);
  }
  return out;
}

}  // namespace

CompiledModel CompileModel(const tflite::Model& file_model,
                           const std::string& path,
                           const CompileOptions& options) {
  if (const std::string why = NamespaceProblem(options.namespace_name);
      !why.empty()) {
    throw InputError("--namespace '" + TerminalText(options.namespace_name) +
                     "': " + why);
  }
  if (file_model.subgraphs.size() != 1) {
    throw InputError(path + ": " + std::to_string(file_model.subgraphs.size()) +
                     " subgraphs; compile supports single-subgraph models");
  }
  const std::string stem = FileStem(options);
  // Folded as `plan`, `records` and `inspect` fold it
  // (codegen/tflite/fold_model.hpp: constants, then the graph; neither with
  // --no-fold); the rest is compiled.
  tflite::FoldedModel fold = tflite::FoldModel(file_model, options.input);
  const tflite::Model& model = fold.model;
  const tflite::Subgraph& sg = model.subgraphs[0];

  // The tensors and every kernel's scratch (codegen/scratch/).
  InputOptions input = options.input;
  input.kernel_scratch = true;
  tflite::TfliteProblem problem =
      tflite::BuildProblem(model, scratch::WithKernelScratch(model, input));
  // Every operator without a lowering, before any planning.
  CheckLowerable(model, path);
  if (options.input.overlap) {
    // --overlap: the kernels' allowed overlaps (codegen/overlap/).
    problem.problem.overlaps = overlap::FindOverlapPairs(model, problem);
  }
  CompiledModel out;
  out.folded = fold.constants;
  out.file_operator_count = fold.file_operator_count;
  out.graph_folded = fold.graph;
  // --fuse: the fused problem (segments as steps, rings as records); the
  // Lowerer addresses tensors by their records in it (a tensor made inside
  // a segment gets an index past the plan: its lowered call is replaced).
  std::optional<fuse::FusePlan> fused;
  tflite::TfliteProblem lowered = problem;
  if (options.fuse) {
    if (!options.regions.empty()) {
      throw InputError("--fuse and --region exclude each other");
    }
    PlanOptions fused_options = options.plan;
    fused_options.overlap = true;
    fused = fuse::PlanLeanFusion(
        model, problem, overlap::FindOverlapPairs(model, problem),
        options.plan.alignment.value_or(kModelAlignment),
        [&](const UsageProblem& q) {
          return Plan(q, fused_options).arena_bytes;
        });
    out.plan = Plan(fused->problem, fused_options);
    lowered.record_tensor =
        FusedRecordTensors(problem, *fused, sg.tensors.size());
  } else {
    PlanArena(problem.problem, options, out);
  }
  const bool regions = out.region_plan.has_value();

  Lowerer gen(model, path, lowered);
  if (regions) gen.AddressInRegions();
  gen.PlaceScratch(ScratchRecords(problem, fused ? &*fused : nullptr));
  gen.NumberOperators(fold.file_index);
  if (!out.folded.empty()) {
    gen.Emit(
        "  // Folded at generation time (outputs are constants, not run): " +
        CommentText(tflite::FoldedText(out.folded)) + "\n");
  }
  gen.Run();
  CheckGraphIo(sg, gen, path);
  out.constant_bytes = gen.ConstantBytes();
  // The whole-model trace check: the schedule as placed, independent of
  // how the plan, the overlap pairs and the segments were found.
  out.schedule = BuildSchedule(
      ScheduleInputs{&model, &problem, &lowered.record_tensor, &out.plan,
                     regions ? &*out.region_plan : nullptr, &gen.Accesses(),
                     fused ? &*fused : nullptr});
  if (const trace::TraceCheck c = trace::CheckSchedule(out.schedule);
      c.result != trace::TraceResult::kOk) {
    throw InternalError(TerminalText(path) + ": trace check failed (" +
                        trace::TraceResultName(c.result) + "): " + c.message);
  }

  HeaderOptions hopt;
  hopt.namespace_name = options.namespace_name;
  hopt.input_name = BaseName(path);
  hopt.input_sha256 =
      options.input_sha256.empty() ? Sha256FileHex(path) : options.input_sha256;
  hopt.tensor_bytes = ExactBytes(problem, fused ? &*fused : nullptr);
  out.arena_header_name = stem + "_arena.hpp";
  out.model_header_name = stem + "_model.hpp";
  out.model_source_name = stem + "_model.cpp";
  out.arena_header = regions ? EmitRegionHeader(*out.region_plan, hopt)
                             : EmitHeader(out.plan, hopt);

  const std::string banner = "// Generated by `arenaplan compile` from " +
                             CommentText(hopt.input_name) + "\n// (sha256 " +
                             CommentText(hopt.input_sha256) + "), strategy " +
                             CommentText(out.plan.strategy) + ", arena " +
                             std::to_string(out.plan.arena_bytes) +
                             " bytes. Do not edit.\n";
  std::vector<std::uint64_t> constants_before = gen.ConstantBytesBefore();
  constants_before.push_back(gen.ConstantBytes());
  const std::vector<ProfileStep> steps =
      ProfileSteps(sg, fold.file_index, constants_before, out.plan.problem,
                   fused ? &*fused : nullptr);
  out.model_header =
      banner + ModelHeader(sg, gen, problem, out, options.namespace_name,
                           ProfileTableText(steps));
  const std::string body = WithProfileMarks(
      fused ? FuseBody(gen.Body(), *fused, model, path) : gen.Body(),
      steps.size());
  out.model_source =
      banner + ModelSource(gen, out, options.namespace_name, regions, body);
  return out;
}

void CheckLowers(const tflite::Model& model, const std::string& path) {
  InputOptions input;
  input.kernel_scratch = true;
  const tflite::TfliteProblem problem =
      tflite::BuildProblem(model, scratch::WithKernelScratch(model, input));
  Lowerer gen(model, path, problem);
  gen.PlaceScratch(ScratchRecords(problem, nullptr));
  gen.Run();
}

}  // namespace arenaplan::compile
