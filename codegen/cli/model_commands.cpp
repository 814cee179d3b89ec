// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan records`, `arenaplan inspect` and `arenaplan tflm`.

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "codegen/base/atomic_file.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/cli/commands.hpp"
#include "codegen/cli/options.hpp"
#include "codegen/emit/cpp_text.hpp"
#include "codegen/emit/csv.hpp"
#include "codegen/emit/tflm_model.hpp"
#include "codegen/emit/tflm_shim.hpp"
#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/scratch/kernel_scratch.hpp"
#include "codegen/strategies/strategy.hpp"
#include "codegen/tflite/const_fold.hpp"
#include "codegen/tflite/fold_model.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/tflm/arena.hpp"
#include "codegen/tflm/kernels.hpp"
#include "codegen/tflm/offline_plan.hpp"
#include "codegen/tflm/reserved_arena.hpp"

namespace arenaplan {
namespace {

/// Options the model sub-commands share (the same spelling as `plan`).
struct ModelArgs {
  std::string input;
  ModelOptionArgs options;
  std::optional<std::uint64_t> align;  ///< Default kModelAlignment.
};

void AddModelArgs(CLI::App* cmd, ModelArgs* a) {
  cmd->add_option("MODEL", a->input, "A .tflite model")->required();
  AddModelOptions(cmd, &a->options);
  AddAlignOption(cmd, &a->align);
}

/// `--align` of a model command (default 16): a power of two and, for
/// `tflm`, a multiple of TFLM's buffer alignment.
Alignment CheckAlign(const std::optional<std::uint64_t>& bytes,
                     std::uint64_t multiple_of) {
  const std::uint64_t align = bytes.value_or(kModelAlignment.bytes());
  const Alignment alignment = Alignment::FromBytes(align);
  if (align % multiple_of != 0) {
    throw InputError("--align " + std::to_string(align) +
                     ": TFLM needs a multiple of " +
                     std::to_string(multiple_of));
  }
  return alignment;
}

std::string U64(std::uint64_t v) { return std::to_string(v); }

std::string Indices(const std::vector<std::int32_t>& d) {
  std::string s;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i) s += " ";
    s += std::to_string(d[i]);
  }
  return s;
}

/// `s` left-aligned in a column of `w` characters; a text that fills the
/// column still gets one space after it, so columns never run together.
std::string Pad(std::string s, std::size_t w) {
  s.append(s.size() < w ? w - s.size() : 1, ' ');
  return s;
}
/// `s` right-aligned in a column of `w` characters; a text that fills the
/// column still gets one space before it.
std::string PadLeft(const std::string& s, std::size_t w) {
  return std::string(s.size() < w ? w - s.size() : 1, ' ') + s;
}

/// The closing lines of `inspect` and `tflm`: the variable tensors' bytes
/// (when any) after `persistent_label`, and one line per subgraph not
/// planned (its name escaped for a terminal).
std::string UnplannedLines(const tflite::TfliteProblem& p,
                           const std::string& persistent_label) {
  std::string o;
  if (p.problem.persistent_bytes != 0) {
    o += persistent_label + ": " + U64(p.problem.persistent_bytes) + " bytes\n";
  }
  for (const std::string& line : p.not_planned)
    o += "not planned: " + TerminalText(line) + "\n";
  return o;
}

/// The model of `records` or `inspect` as the file has it, folded as `plan`
/// and `compile` fold it (codegen/tflite/fold_model.hpp), its records and
/// its --align.
struct LoadedModel {
  Alignment alignment;
  tflite::Model file;
  tflite::FoldedModel folded;
  tflite::TfliteProblem problem;
};

LoadedModel LoadModel(const ModelArgs& a) {
  const Alignment alignment = CheckAlign(a.align, 1);
  tflite::Model file = tflite::ReadModelFile(a.input);
  const InputOptions options = ToInputOptions(a.options);
  tflite::FoldedModel folded = tflite::FoldModel(file, options);
  tflite::TfliteProblem problem = tflite::BuildProblem(
      folded.model, scratch::WithKernelScratch(
                        folded.model, tflite::StepOptions(folded, options)));
  return {alignment, std::move(file), std::move(folded), std::move(problem)};
}

int RunRecords(const ModelArgs& a, const std::string& out) {
  const LoadedModel loaded = LoadModel(a);
  const tflite::TfliteProblem& p = loaded.problem;
  const std::string csv = RecordsCsv(AlignProblem(p.problem, loaded.alignment));
  PrintWarnings(p.problem);
  if (out.empty()) {
    std::cout << csv;
  } else {
    WriteFilesAtomically({{out, csv}});
  }
  return kExitOk;
}

/// The operators computed at generation time
/// (codegen/tflite/const_fold.hpp), one line each; "" when none.
std::string ConstantLines(const tflite::FoldedModel& f) {
  if (f.constants.empty()) return "";
  const tflite::Subgraph& g = f.model.subgraphs[0];
  std::string o =
      "\ncomputed at generation time (outputs become constants, no arena "
      "record, no step; --no-fold keeps them):\n";
  for (const tflite::FoldedOperator& op : f.constants) {
    const tflite::Tensor& t = g.tensors[static_cast<std::size_t>(op.output)];
    o += "  operator " + U64(op.op) + " " + op.builtin + " -> tensor " +
         std::to_string(op.output) + " " + tflite::TensorTypeName(t.type) +
         " " + tflite::ShapeText(t.shape) + " '" + TerminalText(t.name) + "'\n";
  }
  return o;
}

/// One row of `inspect`'s operator list: the file's operator `op`, run at
/// `step` of the plan (-1: computed at generation time; `with_step`: the
/// step column is shown, i.e. some operator was).
std::string OperatorRow(std::size_t op, std::int64_t step, bool with_step,
                        const std::string& name, const tflite::Operator& o) {
  std::string r = "  " + PadLeft(U64(op), 4) + "  ";
  if (with_step) r += PadLeft(step < 0 ? "-" : std::to_string(step), 4) + "  ";
  r += Pad(TerminalText(name), 24) + Indices(o.inputs) + " -> " +
       Indices(o.outputs);
  const auto& e = o.extra_padding;
  if (e.top != 0 || e.bottom != 0 || e.left != 0 || e.right != 0) {
    r += "  (input padded " + std::to_string(e.top) + "," +
         std::to_string(e.bottom) + "," + std::to_string(e.left) + "," +
         std::to_string(e.right) + " top,bottom,left,right)";
  }
  if (step < 0) r += "  FOLDED: computed at generation time";
  if (!o.folded.empty()) r += "  FOLDED: " + TerminalText(o.folded);
  return r + "\n";
}

/// inspect's lines of the scratch buffers (--scratch, --kernel-scratch):
/// each record without a tensor, its id, bytes (unaligned) and step; ""
/// when there are none.
std::string ScratchLines(const tflite::TfliteProblem& p) {
  std::string o;
  for (std::size_t r = 0; r < p.record_tensor.size(); ++r) {
    if (p.record_tensor[r] >= 0) continue;
    if (o.empty()) {
      o = "\nscratch (alive at one operator step; bytes unaligned):\n  " +
          Pad("id", 12) + PadLeft("bytes", 10) + PadLeft("step", 7) +
          "  name\n";
    }
    o += "  " + Pad(TerminalText(p.problem.ids[r]), 12) +
         PadLeft(U64(p.problem.records[r].size), 10) +
         PadLeft(std::to_string(p.problem.records[r].first_op), 7) + "  " +
         TerminalText(p.problem.names[r]) + "\n";
  }
  return o;
}

int RunInspect(const ModelArgs& a) {
  const LoadedModel loaded = LoadModel(a);
  const Alignment alignment = loaded.alignment;
  // The file's header, operators and counts; tensors and operators as
  // folded (tensor indices are the file's).
  const tflite::Model& model = loaded.file;
  const tflite::FoldedModel& folded = loaded.folded;
  const tflite::TfliteProblem& p = loaded.problem;
  PrintWarnings(p.problem);
  const tflite::Subgraph& file_graph = model.subgraphs[0];
  const tflite::Subgraph& g = folded.model.subgraphs[0];
  std::string o;
  o += "model:      " + TerminalText(a.input) + " (schema version " +
       U64(model.version) + ", " + U64(model.subgraphs.size()) + " subgraph" +
       (model.subgraphs.size() == 1 ? "" : "s") + ", " +
       U64(model.buffers.size()) + " buffers)\n";
  if (!model.description.empty()) {
    o += "description: " + TerminalText(model.description) + "\n";
  }
  for (const tflite::MetadataEntry& m : model.metadata) {
    o += "metadata:   " + TerminalText(m.name) + " (buffer " + U64(m.buffer) +
         ", " + U64(model.buffers[m.buffer].data.size()) + " bytes)\n";
  }
  o += "subgraph 0: " + U64(file_graph.tensors.size()) + " tensors, " +
       U64(file_graph.operators.size()) + " operators; inputs " +
       Indices(file_graph.inputs) + "; outputs " + Indices(file_graph.outputs) +
       "\n\n";
  // With operators computed at generation time the plan's steps are no
  // longer the file's indices: both columns are shown.
  const bool with_step = !folded.constants.empty();
  if (with_step) {
    o += "operators (op: the file's index; step: in the plan, - when "
         "computed at generation time):\n";
    o += "  " + PadLeft("op", 4) + "  " + PadLeft("step", 4) + "  " +
         Pad("builtin", 24) + "inputs -> outputs\n";
  } else {
    o += "operators (step = index):\n";
    o += "  " + PadLeft("op", 4) + "  " + Pad("builtin", 24) +
         "inputs -> outputs\n";
  }
  for (std::size_t k = 0; k < file_graph.operators.size(); ++k) {
    const std::int64_t step = folded.StepOf(k);
    if (step < 0) {
      const tflite::Operator& op = file_graph.operators[k];
      o += OperatorRow(k, step, with_step,
                       op.builtin_code == tflite::BuiltinOp::kCustom
                           ? op.custom_code
                           : op.builtin_name,
                       op);
      continue;
    }
    const auto s = static_cast<std::size_t>(step);
    o += OperatorRow(k, step, with_step, p.problem.operator_names[s],
                     g.operators[s]);
  }
  o += "\ntensors (first/last: inclusive operator steps; bytes unaligned):\n";
  o += "  " + PadLeft("id", 4) + "  " + Pad("role", 9) + Pad("type", 9) +
       Pad("shape", 18) + PadLeft("bytes", 10) + PadLeft("first", 7) +
       PadLeft("last", 6) + "  name\n";
  for (std::size_t t = 0; t < g.tensors.size(); ++t) {
    const tflite::Tensor& ten = g.tensors[t];
    const tflite::TensorLifetime& life = p.tensors[t];
    const bool planned = life.role == tflite::TensorRole::kPlanned;
    o += "  " + PadLeft(U64(t), 4) + "  " +
         Pad(tflite::TensorRoleName(life.role), 9) +
         Pad(tflite::TensorTypeName(ten.type), 9) +
         Pad(tflite::ShapeText(ten.shape), 18) + PadLeft(U64(life.bytes), 10) +
         PadLeft(planned ? std::to_string(life.first_op) : "-", 7) +
         PadLeft(planned ? std::to_string(life.last_op) : "-", 6) + "  " +
         TerminalText(ten.name) +
         (ten.alias_of >= 0 ? " (in tensor " + std::to_string(ten.alias_of) +
                                  " at byte " + U64(ten.alias_offset) + ")"
                            : std::string()) +
         "\n";
  }
  o += ScratchLines(p);
  const UsageProblem aligned = AlignProblem(p.problem, alignment);
  const ProfileSummary s = SummarizeProfiles(aligned.records);
  o += "\nplanned buffers: " + U64(aligned.records.size()) + " (alignment " +
       U64(alignment.bytes()) + ")\n";
  o += "naive total (every buffer its own memory): " + U64(s.naive_bytes) +
       " bytes\n";
  o += "lower bound, offsets (max operator breadth): " +
       U64(s.offsets_lower_bound) + " bytes\n";
  o += "lower bound, shared objects (sum of positional maximums): " +
       U64(s.shared_objects_lower_bound) + " bytes\n";
  o += UnplannedLines(p, "persistent (variable tensors, outside the plan)");
  o += ConstantLines(folded);
  std::cout << o;
  return kExitOk;
}

struct TflmArgs {
  ModelArgs model;
  std::string out;
  std::string shim;
  std::string strategy = "best";
  std::optional<double> time_limit;
  bool overlap = false;  // refused: see RunTflm
};

/// `arenaplan tflm --strategy` accepts "best", "optimal" and the offsets
/// strategies; anything else is an error that lists them.
void CheckTflmStrategy(const std::string& name) {
  if (name == "best" || name == "optimal" ||
      FindStrategy(Approach::kOffsets, name) != nullptr) {
    return;
  }
  std::string list = "best, optimal";
  for (const StrategyInfo& s : AllStrategies()) {
    if (s.approach == Approach::kOffsets && s.name != "optimal") {
      list += ", " + std::string(s.name);
    }
  }
  throw InputError("--strategy " + name +
                   ": not an offsets strategy; arenaplan tflm accepts " + list);
}

/// The scratch requests TFLM's kernels make, with the user's --scratch
/// entries replacing those of the operators they name (and adding to
/// operators without any), in TFLM's order (operator, then request).
std::vector<std::pair<std::uint32_t, std::uint64_t>> MergeScratch(
    const std::vector<tflm::ScratchRequest>& derived,
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& user) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  for (const tflm::ScratchRequest& r : derived) {
    bool overridden = false;
    for (const auto& u : user) overridden = overridden || u.first == r.op;
    if (!overridden) out.emplace_back(r.op, r.bytes);
  }
  out.insert(out.end(), user.begin(), user.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return x.first < y.first;
  });
  return out;
}

/// The plan written into the model: tensors and scratch planned together
/// (what the shim uses), and the tensors alone; TFLM then places the
/// scratch buffers around the offline-planned tensors by its own rule, so
/// both are simulated and the smaller head wins. If neither beats TFLM's
/// own placement, the metadata leaves every tensor to TFLM.
struct OfflineChoice {
  PlanResult joint;                 ///< Tensors and scratch.
  PlanResult alone;                 ///< Tensors only (joint without scratch).
  bool alone_chosen = false;        ///< `alone` gave the smaller head.
  std::size_t tensor_records = 0;   ///< Records that are tensors.
  std::uint64_t own = 0;            ///< TFLM's own head, without a plan.
  std::uint64_t head = 0;           ///< The head of the written metadata.
  bool keep_own = false;            ///< Every tensor left to TFLM.
  std::vector<std::int32_t> words;  ///< OfflineMemoryAllocation words.
  [[nodiscard]] const PlanResult& chosen() const {
    return alone_chosen ? alone : joint;
  }
};

OfflineChoice ChooseOfflinePlan(const tflite::TfliteProblem& p,
                                const tflite::Model& model,
                                const PlanOptions& po) {
  OfflineChoice c;
  c.joint = Plan(p.problem, po);
  while (c.tensor_records < p.record_tensor.size() &&
         p.record_tensor[c.tensor_records] >= 0) {
    ++c.tensor_records;
  }
  UsageProblem tensors_only = p.problem;
  tensors_only.records.resize(c.tensor_records);
  tensors_only.ids.resize(c.tensor_records);
  tensors_only.names.resize(c.tensor_records);
  c.alone = c.tensor_records == p.problem.records.size()
                ? c.joint
                : Plan(tensors_only, po);
  c.own = tflm::TflmHead(p, model, nullptr);
  const std::uint64_t head_joint = tflm::TflmHead(p, model, &c.joint);
  const std::uint64_t head_alone = tflm::TflmHead(p, model, &c.alone);
  c.alone_chosen = head_alone < head_joint;
  c.head = std::min(head_joint, head_alone);
  c.words = tflm::OfflinePlanWords(p, c.chosen(), model.subgraphs.size());
  c.keep_own = c.own < c.head;
  if (c.keep_own) {
    std::fill(c.words.begin() + 3, c.words.end(), -1);
    c.head = c.own;
  }
  return c;
}

/// What `arenaplan tflm` prints once the files are written.
std::string TflmReport(const TflmArgs& a, const OfflineChoice& c,
                       const tflite::TfliteProblem& p,
                       std::span<const tflm::ScratchRequest> scratch,
                       const tflm::TflmArena& arena, std::size_t written_bytes,
                       std::uint64_t shim_arena) {
  std::string o;
  o += "wrote " + a.out + ": " + U64(written_bytes) + " bytes, " +
       tflm::kOfflinePlanName + " for " + U64(c.tensor_records) +
       " tensors (strategy " + c.chosen().strategy + ")\n";
  if (!a.shim.empty()) {
    o += "wrote " + a.shim + ": shim plan for the original model, " +
         U64(c.joint.arena_bytes) + " non-persistent bytes, arena " +
         U64(shim_arena) + " bytes\n";
  }
  if (!scratch.empty()) {
    o += "scratch buffers (TFLM reference kernels";
    o += a.model.options.scratch.empty() ? "" : " and --scratch";
    o += "), OP:BYTES:";
    for (const tflm::ScratchRequest& r : scratch) {
      o += " " + U64(r.op) + ":" + U64(r.bytes);
    }
    o += "\n";
  }
  if (c.keep_own) {
    o += "the plan does not beat TFLM's own placement here; every tensor is "
         "left to TFLM\n";
  }
  o += "non-persistent (head) arena: " + U64(c.head) +
       " bytes (TFLM's GreedyMemoryPlanner without the plan: " + U64(c.own) +
       " bytes; both simulated as " + tflm::kTflmVersion + " places them)\n";
  o += "constexpr std::size_t kTensorArenaNonPersistentBytes = " + U64(c.head) +
       ";\n";
  o += "constexpr std::size_t kTensorArenaSize = " + U64(arena.arena) +
       ";  // whole arena, 16-byte aligned\n";
  o += "arena model: " + U64(arena.persistent) +
       " persistent bytes; largest need at " + arena.binding_step +
       "; TFLM's allocations replayed as " + tflm::kTflmVersion +
       " makes them, 64-bit host struct sizes (docs/tflm.md)\n";
  o += UnplannedLines(p, "variable tensors (persistent, included above)");
  for (const auto& [note, ops] : arena.notes) {
    std::string list;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      list += (i ? "," : "") + ops[i];
    }
    o += "note: operator" + std::string(ops.size() > 1 ? "s " : " ") + list +
         ": " + note + "\n";
  }
  return o;
}

int RunTflm(const TflmArgs& a) {
  if (a.overlap) {
    // TFLM's kernels make no promise about reading an input before writing
    // an overlapping output (docs/overlap.md).
    throw InputError(
        "--overlap: not for tflm: TensorFlow Lite Micro's kernels make no "
        "overlap promise (use it with plan or compile)");
  }
  const Alignment alignment =
      CheckAlign(a.model.align, tflm::kTflmBufferAlignment);
  CheckTflmStrategy(a.strategy);
  const std::vector<std::uint8_t> bytes = tflite::ReadFileBytes(a.model.input);
  const tflite::Model model = tflite::ReadModel(bytes, a.model.input);
  if (!a.shim.empty() && tflm::ReadOfflinePlan(model)) {
    throw InputError(a.model.input +
                     ": already holds an OfflineMemoryAllocation plan (a "
                     "planned copy?); --shim needs the original model, which "
                     "the firmware must then embed");
  }
  // The file's graph, unfolded (not codegen/tflite/fold_model.hpp): TFLM
  // runs every operator of the model it is handed, SHAPE and PAD included,
  // and allocates each one's output, so the plan written into it must hold
  // them all.
  InputOptions options = ToInputOptions(a.model.options);
  options.fold = false;
  if (options.kernel_scratch) {
    throw InputError(a.model.input +
                     ": --kernel-scratch plans arenaplan's kernels' scratch; "
                     "tflm plans TFLM's own (its kernels' requests)");
  }
  // Operators whose kernel has no rule are reported below with the arena
  // model's notes.
  options.scratch = MergeScratch(
      tflm::TflmScratchRequests(model, options, nullptr), options.scratch);
  const tflite::TfliteProblem p = tflite::BuildProblem(model, options);
  PrintWarnings(p.problem);
  std::vector<tflm::ScratchRequest> scratch;
  for (const auto& [op, b] : options.scratch) {
    if (b != 0) scratch.push_back({op, b});
  }

  PlanOptions po;
  po.approach = Approach::kOffsets;
  po.strategy = a.strategy;
  po.alignment = alignment;
  po.time_limit_s = a.time_limit;
  const OfflineChoice c = ChooseOfflinePlan(p, model, po);
  const std::vector<std::uint8_t> written =
      WithOfflinePlan(bytes, model, c.words);
  // The output must read back: verifier, indices, and the plan words.
  const tflite::Model check = tflite::ReadModel(written, a.out);
  if (tflm::ReadOfflinePlan(check) != c.words) {
    throw InternalError(a.out + ": written plan does not read back");
  }

  const tflm::TflmArena arena = tflm::ModelTflmArena(
      model, options, c.head, scratch, tflm::TflmPlannerKind::kGreedy);
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back(a.out, std::string(written.begin(), written.end()));
  std::uint64_t shim_arena = 0;
  if (!a.shim.empty()) {
    shim_arena = tflm::ModelTflmArena(model, options, c.joint.arena_bytes,
                                      scratch, tflm::TflmPlannerKind::kShim)
                     .arena;
    files.emplace_back(
        a.shim, ShimHeader(p, c.joint, model.subgraphs.size(), a.model.input,
                           {bytes.size(), shim_arena}));
  }
  WriteFilesAtomically(files);
  std::cout << TflmReport(a, c, p, scratch, arena, written.size(), shim_arena);
  return kExitOk;
}

}  // namespace

void RegisterModelCommands(CLI::App& app, int* exit_code) {
  // Option storage lives as long as the callbacks that hold it.
  auto records_args = std::make_shared<ModelArgs>();
  auto records_out = std::make_shared<std::string>();
  CLI::App* records = app.add_subcommand(
      "records",
      "Write a model's tensor usage records as CSV (id,lower,upper,size,name; "
      "upper exclusive; sizes rounded to --align)");
  AddModelArgs(records, records_args.get());
  records->add_option("--out", *records_out, "CSV file (default: stdout)");
  records->callback([exit_code, records_args, records_out] {
    *exit_code = RunRecords(*records_args, *records_out);
  });

  auto inspect_args = std::make_shared<ModelArgs>();
  CLI::App* inspect = app.add_subcommand(
      "inspect",
      "Show a model's operators, tensors, lifetimes, sizes and "
      "lower bounds");
  AddModelArgs(inspect, inspect_args.get());
  inspect->callback(
      [exit_code, inspect_args] { *exit_code = RunInspect(*inspect_args); });

  auto tflm_args = std::make_shared<TflmArgs>();
  CLI::App* tflm =
      app.add_subcommand("tflm",
                         "Write the plan into a copy of the model as TFLM's "
                         "OfflineMemoryAllocation metadata");
  AddModelArgs(tflm, &tflm_args->model);
  tflm->add_option("--out", tflm_args->out, "The planned .tflite to write")
      ->required();
  tflm->add_option("--shim", tflm_args->shim,
                   "Also write a plan header for "
                   "tflite::NonPersistentMemoryPlannerShim (use it with the "
                   "original model)");
  tflm->add_option("--strategy", tflm_args->strategy,
                   "best (default), optimal, or an offsets strategy");
  tflm->add_option("--time-limit", tflm_args->time_limit,
                   "Seconds for the exact search")
      ->check(Seconds());
  tflm->add_flag("--overlap", tflm_args->overlap,
                 "Refused: TFLM's kernels make no overlap promise");
  tflm->callback([exit_code, tflm_args] { *exit_code = RunTflm(*tflm_args); });
}

}  // namespace arenaplan
