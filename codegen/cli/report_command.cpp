// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan report MODEL --out report.html [--profile PROFILE.json]`: the
// figures of codegen/emit/report.hpp's page, each computed by the function
// the other sub-commands use (FoldModel and BuildProblem as `plan`,
// FindOverlapPairs for `--overlap`, PlanFusion for `--fuse`, TflmHead as
// `tflm`, EmitSvg as `plan --svg`), and tflite::CostOf for MACs.

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/base/atomic_file.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/base/saturating.hpp"
#include "codegen/cli/commands.hpp"
#include "codegen/cli/options.hpp"
#include "codegen/emit/report.hpp"
#include "codegen/emit/sha256.hpp"
#include "codegen/emit/svg.hpp"
#include "codegen/fuse/fuse.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/tflite/fold_model.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/op_cost.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/tflm/kernels.hpp"
#include "codegen/tflm/reserved_arena.hpp"

namespace arenaplan {
namespace {

struct ReportArgs {
  std::string input;
  std::string out;
  std::string profile;
  ModelOptionArgs options;
  std::optional<std::uint64_t> align;
};

/// "[1,96,96,3] INT8" for each tensor of `list` (-1: "-"), joined by ", ".
std::string ShapesOf(const tflite::Subgraph& sg,
                     const std::vector<std::int32_t>& list) {
  std::string s;
  for (std::int32_t t : list) {
    if (!s.empty()) s += ", ";
    if (t < 0 || static_cast<std::size_t>(t) >= sg.tensors.size()) {
      s += "-";
      continue;
    }
    const tflite::Tensor& x = sg.tensors[static_cast<std::size_t>(t)];
    s += tflite::ShapeText(x.shape) + " " + tflite::TensorTypeName(x.type);
  }
  return s;
}

/// The profile's per-operator counts by file operator index, and its
/// total: a JSON list of objects each with an "index" (the file's operator
/// index) and an "instructions" (or "cycles") field; a top-level "total"
/// when present, else their sum. Read leniently (only those fields), with
/// a one-line InputError naming the file for anything else.
struct Profile {
  std::vector<std::pair<std::size_t, std::uint64_t>> counts;
  std::optional<std::uint64_t> total;
  std::string unit = "instructions";
};

/// The unsigned integer after `"key":` at or after `from` in `text`
/// (before `end`), or nullopt.
std::optional<std::uint64_t> FieldAfter(const std::string& text,
                                        const std::string& key,
                                        std::size_t from, std::size_t end) {
  const std::size_t k = text.find("\"" + key + "\"", from);
  if (k == std::string::npos || k >= end) return std::nullopt;
  std::size_t i = text.find(':', k);
  if (i == std::string::npos || i >= end) return std::nullopt;
  ++i;
  while (i < end && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) {
    ++i;
  }
  std::uint64_t v = 0;
  std::size_t digits = 0;
  for (; i < end && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (v > (UINT64_MAX - 9) / 10) return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (digits == 0) return std::nullopt;
  return v;
}

Profile ReadProfile(const std::string& path) {
  const std::vector<std::uint8_t> bytes = tflite::ReadFileBytes(path);
  const std::string text(bytes.begin(), bytes.end());
  Profile p;
  if (text.find("\"cycles\"") != std::string::npos &&
      text.find("\"instructions\"") == std::string::npos) {
    p.unit = "cycles";
  }
  std::size_t at = 0;
  while ((at = text.find('{', at + 1)) != std::string::npos) {
    const std::size_t end = text.find('}', at);
    if (end == std::string::npos) break;
    const auto index = FieldAfter(text, "index", at, end);
    const auto count = FieldAfter(text, p.unit, at, end);
    if (index && count) p.counts.emplace_back(*index, *count);
  }
  if (p.counts.empty()) {
    throw InputError(path + ": no operator with \"index\" and \"" + p.unit +
                     "\" fields");
  }
  // "total" outside every operator object.
  const std::size_t first = text.find('{', 1);
  p.total = FieldAfter(text, "total", 0,
                       first == std::string::npos ? text.size() : first);
  if (!p.total) {
    std::uint64_t sum = 0;
    for (const auto& c : p.counts) sum = SaturatingAdd(sum, c.second);
    p.total = sum;
  }
  return p;
}

/// Bytes of the records alive at each step (sizes as the plan aligned them).
std::vector<std::uint64_t> LiveBytes(const PlanResult& plan) {
  std::vector<std::uint64_t> live(plan.problem.operator_count, 0);
  for (const TensorUsageRecord& r : plan.problem.records) {
    for (std::uint32_t s = r.first_op; s <= r.last_op && s < live.size(); ++s) {
      live[s] = SaturatingAdd(live[s], r.size);
    }
  }
  return live;
}

/// Runs `f` for one arena row; an error of the model in that mode becomes
/// the row's note.
template <class F>
ReportArena Arena(std::string mode, std::string note, F f) {
  ReportArena a{std::move(mode), std::nullopt, std::move(note)};
  try {
    a.bytes = f();
  } catch (const InputError& e) {
    a.note = e.what();
  } catch (const InfeasibleError& e) {
    a.note = e.what();
  }
  return a;
}

/// Per-operator "applied" notes of the folded model's steps.
std::vector<std::string> AppliedNotes(const tflite::FoldedModel& f,
                                      const std::vector<OverlapPair>& pairs,
                                      const tflite::TfliteProblem& p,
                                      const fuse::FusePlan* fused) {
  const tflite::Subgraph& sg = f.model.subgraphs[0];
  std::vector<std::string> notes(sg.operators.size());
  auto add = [&](std::size_t k, const std::string& s) {
    notes[k] += (notes[k].empty() ? "" : "; ") + s;
  };
  for (std::size_t k = 0; k < sg.operators.size(); ++k) {
    if (!sg.operators[k].folded.empty()) {
      add(k, "folded: " + sg.operators[k].folded);
    }
  }
  for (const OverlapPair& q : pairs) {
    if (q.op >= notes.size()) continue;
    const std::int32_t t = p.record_tensor[q.input];
    add(q.op,
        "--overlap: output may lie over input tensor " + std::to_string(t) +
            (q.relation == OverlapRelation::kAlias
                 ? " (the same bytes)"
                 : " from " + std::to_string(q.distance) + " B below it"));
  }
  if (fused != nullptr) {
    for (const fuse::Segment& s : fused->segments) {
      for (std::uint32_t k = s.first_op; k <= s.last_op && k < notes.size();
           ++k) {
        add(k, "--fuse: row-streamed in segment of operators " +
                   std::to_string(f.file_index[s.first_op]) + "-" +
                   std::to_string(f.file_index[s.last_op]));
      }
    }
  }
  return notes;
}

/// One row per operator of the file, with the model's totals.
void AddOperators(Report& r, const tflite::Model& file,
                  const tflite::FoldedModel& folded,
                  const tflite::TfliteProblem& problem, const PlanResult& plain,
                  const std::vector<OverlapPair>& pairs,
                  const fuse::FusePlan* fused) {
  const std::vector<std::uint64_t> live = LiveBytes(plain);
  const std::vector<std::string> notes =
      AppliedNotes(folded, pairs, problem, fused);
  const tflite::Subgraph& file_sg = file.subgraphs[0];
  const tflite::Subgraph& sg = folded.model.subgraphs[0];
  std::vector<std::int64_t> step_of(file_sg.operators.size(), -1);
  for (std::size_t k = 0; k < folded.file_index.size(); ++k) {
    step_of[folded.file_index[k]] = static_cast<std::int64_t>(k);
  }
  for (std::size_t f = 0; f < file_sg.operators.size(); ++f) {
    const std::int64_t k = step_of[f];
    const tflite::Operator& op =
        k < 0 ? file_sg.operators[f]
              : sg.operators[static_cast<std::size_t>(k)];
    const tflite::Model& owner = k < 0 ? file : folded.model;
    const tflite::Subgraph& g = owner.subgraphs[0];
    ReportOperator row;
    row.index = f;
    row.builtin =
        op.builtin_code == tflite::BuiltinOp::kCustom && !op.custom_code.empty()
            ? op.custom_code
            : op.builtin_name;
    row.inputs = ShapesOf(g, op.inputs);
    row.outputs = ShapesOf(g, op.outputs);
    const tflite::OperatorCost cost = tflite::CostOf(owner, op);
    row.macs = cost.macs;
    row.constant_bytes = cost.constant_bytes;
    if (k < 0) {
      row.applied = "computed at generation time (its output is a constant)";
    } else {
      row.live_bytes = live[static_cast<std::size_t>(k)];
      row.applied = notes[static_cast<std::size_t>(k)];
    }
    r.macs = SaturatingAdd(r.macs, row.macs);
    r.operators.push_back(std::move(row));
  }
  std::vector<std::uint32_t> buffers;
  for (const tflite::Tensor& t : file_sg.tensors) {
    if (!file.IsConstant(t)) continue;
    std::uint64_t n = 1;
    for (std::int32_t d : t.shape) {
      n = SaturatingMul(n, d < 0 ? 0 : static_cast<std::uint64_t>(d));
    }
    r.parameters = SaturatingAdd(r.parameters, n);
    if (std::find(buffers.begin(), buffers.end(), t.buffer) == buffers.end()) {
      buffers.push_back(t.buffer);
      r.constant_bytes =
          SaturatingAdd(r.constant_bytes, file.buffers[t.buffer].data.size());
    }
  }
}

/// The profile's counts on the rows (InputError for an index that is no
/// operator of the file).
void AddProfile(Report& r, const std::string& path) {
  const Profile p = ReadProfile(path);
  r.profile_total = p.total;
  r.profile_unit = p.unit;
  for (const auto& [index, count] : p.counts) {
    if (index >= r.operators.size()) {
      throw InputError(path + ": operator index " + std::to_string(index) +
                       " is not an operator of the model (" +
                       std::to_string(r.operators.size()) + " operators)");
    }
    auto& slot = r.operators[index].instructions;
    slot = SaturatingAdd(slot.value_or(0), count);
  }
}

Report BuildReport(const ReportArgs& a) {
  const std::vector<std::uint8_t> bytes = tflite::ReadFileBytes(a.input);
  const tflite::Model file = tflite::ReadModel(bytes, a.input);
  const InputOptions input = ToInputOptions(a.options);
  const Alignment alignment = ParseAlign(a.align).value_or(kModelAlignment);
  const tflite::FoldedModel folded = tflite::FoldModel(file, input);
  const tflite::TfliteProblem problem =
      tflite::BuildProblem(folded.model, tflite::StepOptions(folded, input));
  PrintWarnings(problem.problem);
  PlanOptions po;
  po.alignment = alignment;
  const PlanResult plain = Plan(problem.problem, po);

  Report r;
  const std::size_t slash = a.input.find_last_of('/');
  r.model = slash == std::string::npos ? a.input : a.input.substr(slash + 1);
  r.sha256 = Sha256Hex(std::string_view(
      reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  r.file_operators = folded.file_operator_count;
  r.plan_svg = EmitSvg(plain);
  r.arenas.push_back(
      {"arenaplan (default)", plain.arena_bytes,
       "activations, proven lower bound " + std::to_string(plain.lower_bound)});
  std::vector<OverlapPair> pairs;
  r.arenas.push_back(Arena("arenaplan --overlap", "", [&] {
    pairs = overlap::FindOverlapPairs(folded.model, problem);
    UsageProblem q = problem.problem;
    q.overlaps = pairs;
    PlanOptions o = po;
    o.overlap = true;
    return Plan(q, o).arena_bytes;
  }));
  std::optional<fuse::FusePlan> fused;
  r.arenas.push_back(Arena("arenaplan --fuse", "", [&] {
    PlanOptions o = po;
    o.overlap = true;
    fused = fuse::PlanLeanFusion(
        folded.model, problem, overlap::FindOverlapPairs(folded.model, problem),
        alignment,
        [&](const UsageProblem& q) { return Plan(q, o).arena_bytes; });
    return Plan(fused->problem, o).arena_bytes;
  }));
  r.arenas.push_back(Arena(
      "TFLM's planner",
      "non-persistent section of TFLM's GreedyMemoryPlanner, scratch "
      "included (as arenaplan tflm replays it)",
      [&] {
        InputOptions t = input;
        t.fold = false;
        for (const tflm::ScratchRequest& s :
             tflm::TflmScratchRequests(file, t, nullptr)) {
          t.scratch.emplace_back(s.op, s.bytes);
        }
        return tflm::TflmHead(tflite::BuildProblem(file, t), file, nullptr);
      }));
  AddOperators(r, file, folded, problem, plain, pairs,
               fused ? &*fused : nullptr);
  if (!a.profile.empty()) AddProfile(r, a.profile);
  return r;
}

int RunReport(const ReportArgs& a) {
  const std::string html = EmitReportHtml(BuildReport(a));
  OutputSet files;
  files.KeepUnchanged(a.input, "MODEL");
  if (!a.profile.empty()) files.KeepUnchanged(a.profile, "--profile");
  files.Add(a.out, html, "--out");
  files.Commit();
  std::cout << "wrote " << a.out << "\n";
  return kExitOk;
}

}  // namespace

void RegisterReportCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Write one self-contained HTML page about a model: summary, arenas of "
      "each planning mode, the plan, live bytes and a per-operator table");
  cmd->add_option("MODEL", args->input, "A .tflite model")->required();
  cmd->add_option("--out", args->out, "The HTML file to write")->required();
  cmd->add_option("--profile", args->profile,
                  "A per-operator profile (JSON) to show beside the "
                  "operators");
  AddModelOptions(cmd, &args->options);
  AddAlignOption(cmd, &args->align);
  cmd->callback([exit_code, args] { *exit_code = RunReport(*args); });
}

}  // namespace arenaplan
