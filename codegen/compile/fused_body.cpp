// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/fused_body.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "arenaplan/kernels/row_schedule.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::compile {
namespace {

/// Operator k's block of the body: from "  // operator k: " to the next
/// such line (or the end).
struct Block {
  std::size_t begin = std::string::npos, end = std::string::npos;
};

std::vector<Block> SplitBlocks(const std::string& body, std::size_t count) {
  // Lowerer::Run opens each step's block with one "  // operator K: NAME"
  // line, in step order; K is the file's operator index, which differs
  // from the step when operators were computed at generation time, so the
  // blocks are numbered by their order, not by K.
  std::vector<Block> blocks(count);
  const std::string marker = "  // operator ";
  std::size_t at = body.find(marker);
  std::size_t step = 0;
  while (at != std::string::npos) {
    std::size_t next = body.find("\n" + marker, at);
    next = next == std::string::npos ? body.size() : next + 1;
    if (step < count) blocks[step] = {at, next};
    ++step;
    at = next < body.size() ? next : std::string::npos;
  }
  if (step != count) {
    throw InternalError("compile --fuse: " + std::to_string(step) +
                        " operator blocks for " + std::to_string(count) +
                        " steps");
  }
  return blocks;
}

std::string Trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \n\t");
  const std::size_t e = s.find_last_not_of(" \n\t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// The kernel call of a block: "k::NAME(ARGS);" as NAME and the top-level
/// arguments; empty name when the block holds no such call.
struct Call {
  std::string name;
  std::vector<std::string> args;
};

Call ParseCall(const std::string& block) {
  Call c;
  const std::size_t comment_end = block.find('\n');
  const std::size_t k = block.find("k::", comment_end);
  if (k == std::string::npos) return c;
  const std::size_t open = block.find('(', k);
  if (open == std::string::npos) return c;
  c.name = block.substr(k + 3, open - k - 3);
  int depth = 0;
  std::string arg;
  for (std::size_t i = open + 1; i < block.size(); ++i) {
    const char ch = block[i];
    if (ch == '(' || ch == '{' || ch == '[') ++depth;
    if (ch == ')' || ch == '}' || ch == ']') {
      if (depth == 0) {
        c.args.push_back(Trim(arg));
        // Exactly one call in the block: nothing but ";\n" after it (and
        // a line comment: Pad's "// pad value: ...").
        std::string rest = block.substr(i + 1);
        const std::size_t comment = rest.find("//");
        if (comment != std::string::npos) rest = rest.substr(0, comment);
        if (Trim(rest) != ";") c.name.clear();
        return c;
      }
      --depth;
    }
    if (ch == ',' && depth == 0) {
      c.args.push_back(Trim(arg));
      arg.clear();
      continue;
    }
    arg += ch;
  }
  c.name.clear();
  return c;
}

std::string Shape(const tflite::Tensor& t) {
  return "k::Shape4{" + std::to_string(t.shape[0]) + ", " +
         std::to_string(t.shape[1]) + ", " + std::to_string(t.shape[2]) + ", " +
         std::to_string(t.shape[3]) + "}";
}

/// kPlan index of tensor `t` in the fused problem.
std::size_t RecordOf(const fuse::FusePlan& plan, std::int32_t t) {
  const std::string id = std::to_string(t);
  for (std::size_t r = 0; r < plan.problem.ids.size(); ++r) {
    if (plan.problem.ids[r] == id) return r;
  }
  throw InternalError("compile --fuse: tensor " + id + " has no record");
}

std::string RowText(const kernels::RowOp& r) {
  return "k::RowOp{" + std::to_string(r.in_h) + ", " + std::to_string(r.out_h) +
         ", " + std::to_string(r.window) + ", " + std::to_string(r.stride) +
         ", " + std::to_string(r.pad) + ", " + std::to_string(r.input_count) +
         ", {" + std::to_string(r.input[0]) + ", " +
         std::to_string(r.input[1]) + "}, " +
         (r.accumulate ? "true" : "false") + "}";
}

/// The fields of a braced literal "k::Type{a, b, ...}" (top level).
std::vector<std::string> Fields(const std::string& literal) {
  const std::size_t open = literal.find('{');
  const std::size_t close = literal.rfind('}');
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos) return out;
  std::string f;
  int depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const char ch = literal[i];
    if (ch == '{' || ch == '(') ++depth;
    if (ch == '}' || ch == ')') --depth;
    if (ch == ',' && depth == 0) {
      out.push_back(Trim(f));
      f.clear();
      continue;
    }
    f += ch;
  }
  out.push_back(Trim(f));
  return out;
}

/// `literal` with field `index` replaced by `with`; InternalError when it
/// does not have `count` fields.
std::string WithField(const std::string& literal, std::size_t count,
                      std::size_t index, const std::string& with) {
  std::vector<std::string> f = Fields(literal);
  if (f.size() != count) {
    throw InternalError("compile --fuse: unexpected parameters " + literal);
  }
  f[index] = with;
  std::string out = literal.substr(0, literal.find('{') + 1);
  for (std::size_t i = 0; i < f.size(); ++i) out += (i ? ", " : "") + f[i];
  return out + "}";
}

/// A row call's constant shapes as block-scope constants (kFilter unless
/// `filter` is empty, kOut): referenced, not built on the stack at each
/// call.
std::string ConstantShapes(const std::string& filter, const std::string& out) {
  const auto braces = [](const std::string& literal) {
    return literal.substr(literal.find('{'));
  };
  return "          static constexpr k::Shape4 " +
         (filter.empty() ? "" : "kFilter" + braces(filter) + ", ") + "kOut" +
         braces(out) + ";\n";
}

/// The row call (a case of the segment's Rows::Row) of a float32 operator
/// `i` whose unfused call is `c` (fuse.cpp's RowOpOfFloat kinds), setting
/// `kind` and `filter_shape` of its table entry; empty when `c` is not a
/// call of those kinds. The call is the unfused one with only the
/// window's rows, the top padding and the pointers variable.
std::string FloatRowCase(const Call& c, std::size_t i, const tflite::Tensor& in,
                         const tflite::Tensor& o, std::string& kind,
                         std::string& filter_shape) {
  const std::string w = std::to_string(in.shape[2]),
                    ch = std::to_string(in.shape[3]);
  const std::string in_rows = "k::Shape4{1, rows, " + w + ", " + ch + "}";
  const std::string out_row = "k::Shape4{1, 1, " + std::to_string(o.shape[2]) +
                              ", " + std::to_string(o.shape[3]) + "}";
  const std::string x = "reinterpret_cast<const float*>(x)",
                    x2 = "reinterpret_cast<const float*>(x2)",
                    y = "reinterpret_cast<float*>(y)";
  const std::string open = "        case " + std::to_string(i) + ": {\n";
  const std::string close = ");\n          return;\n        }\n";
  const std::int64_t wc = static_cast<std::int64_t>(o.shape[2]) * o.shape[3];
  if ((c.name == "f32::Conv2D" || c.name == "f32::DepthwiseConv2D") &&
      c.args.size() == 8) {
    kind = c.name == "f32::Conv2D" ? "k::FusedKind::kConv2DF32"
                                   : "k::FusedKind::kDepthwiseConv2DF32";
    filter_shape = c.args[3];
    return open + ConstantShapes(filter_shape, out_row) +
           "          k::" + c.name + "(" + WithField(c.args[0], 8, 3, "pad") +
           ",\n              " + in_rows + ", " + x + ", kFilter, " +
           c.args[4] + ", " + c.args[5] + ", kOut, " + y + close;
  }
  if ((c.name == "f32::AveragePool" || c.name == "f32::MaxPool") &&
      c.args.size() == 5) {
    kind = c.name == "f32::AveragePool" ? "k::FusedKind::kAveragePoolF32"
                                        : "k::FusedKind::kMaxPoolF32";
    return open + ConstantShapes("", out_row) + "          k::" + c.name + "(" +
           WithField(c.args[0], 7, 4, "pad") + ",\n              " + in_rows +
           ", " + x + ", kOut, " + y + close;
  }
  if (c.name == "f32::Add" && c.args.size() == 4) {
    kind = "k::FusedKind::kAddF32";
    const std::string s = std::to_string(wc) + ", " + std::to_string(wc) +
                          ", " + std::to_string(o.shape[3]) + ", 1";
    const std::vector<std::string> f = Fields(c.args[0]);
    if (f.size() != 4) {
      throw InternalError("compile --fuse: unexpected parameters " + c.args[0]);
    }
    return open + "          k::f32::Add(k::f32::AddParams{" + f[0] + ", " +
           out_row + ", {" + s + "}, {" + s + "}},\n              " + x + ", " +
           x2 + ", " + y + close;
  }
  if (c.name == "f32::Relu" && c.args.size() == 3) {
    kind = "k::FusedKind::kReluF32";
    return open + "          k::f32::Relu(" + std::to_string(wc) + ", " + x +
           ", " + y + close;
  }
  if (c.name == "Pad<float>" && c.args.size() == 4) {
    kind = "k::FusedKind::kPadF32";
    return open + "          k::Pad<float>(" +
           WithField(c.args[0], 3, 0,
                     "k::Shape4{1, 1, " + w + ", " + ch + "}") +
           ",\n              " + c.args[1] + ", " + x + ", " + y + close;
  }
  return "";
}

/// The row call (a case of the segment's Rows::Row) of a convolution
/// `i` whose unfused call is `c`: the call with the window's rows
/// (`in_rows`), the top padding and the pointers variable (`row_conv` its
/// parameters). With `interior` (an undilated window of more than one
/// row), an interior row first (its window's rows all inside the input:
/// as many rows as the window, no top padding) takes the same call with
/// those as constants, so that the kernel's clipping and window arithmetic
/// fold as in the unfused call; the first and last rows take the general
/// one. Only where k::kInteriorRowCalls (fast_conv.hpp) holds: elsewhere
/// the branch is a constant false, and the compiler drops it.
std::string ConvRowCase(const Call& c, std::size_t i, const kernels::RowOp& r,
                        const tflite::Tensor& in, const std::string& row_conv,
                        const std::string& in_rows, const std::string& out_row,
                        bool interior, bool scratch) {
  const std::string rest = ", x, kFilter, " + c.args[4] + ", " + c.args[5] +
                           ",\n              " + c.args[6] + ", kOut, y" +
                           (scratch ? ", scratch" : "") + ");\n";
  std::string text = "        case " + std::to_string(i) + ": {\n" +
                     ConstantShapes(c.args[3], out_row);
  if (interior && r.window > 1) {
    const std::string win = std::to_string(r.window);
    text +=
        "          if (k::kInteriorRowCalls && rows == " + win +
        " && pad == 0) {\n            static constexpr k::Shape4 kWindow{1, " +
        win + ", " + std::to_string(in.shape[2]) + ", " +
        std::to_string(in.shape[3]) + "};\n            k::" + c.name + "(" +
        WithField(c.args[0], 9, 6, "0") + ",\n              kWindow" + rest +
        "            return;\n          }\n";
  }
  return text + "          k::" + c.name + "(" + row_conv +
         ",\n              " + in_rows + rest +
         "          return;\n        }\n";
}

/// The texts one operator `i` of segment `g` adds: its k::FusedOp entry to
/// `table`, its ring's static_assert to `checks` and its case of the
/// segment's Rows::Row to `rows`.
void AppendFusedOp(const std::string& body, const std::vector<Block>& blocks,
                   const fuse::FusePlan& plan, std::size_t g, std::size_t i,
                   const tflite::Model& model, const std::string& path,
                   std::string& table, std::string& checks, std::string& rows) {
  const tflite::Subgraph& sg = model.subgraphs[0];
  const fuse::Segment& s = plan.segments[g];
  const std::size_t k = s.first_op + i;
  const Block b = blocks[k];
  const Call c = ParseCall(body.substr(b.begin, b.end - b.begin));
  const fuse::FusableOp& f = s.ops[i];
  const tflite::Tensor& in =
      sg.tensors[static_cast<std::size_t>(f.input_tensor[0])];
  const tflite::Tensor& o =
      sg.tensors[static_cast<std::size_t>(f.output_tensor)];
  std::string kind, conv = "{}", pool = "{}", add = "{}";
  const std::string in_rows = "k::Shape4{1, rows, " +
                              std::to_string(in.shape[2]) + ", " +
                              std::to_string(in.shape[3]) + "}";
  const std::string out_row = "k::Shape4{1, 1, " + std::to_string(o.shape[2]) +
                              ", " + std::to_string(o.shape[3]) + "}";
  std::string filter_shape = "{1, 1, 1, 1}", filter = "nullptr",
              bias = "nullptr", quant = "{}";
  // The fast kernels' tenth argument: their scratch record, "arena +
  // kPlan[R].offset" (the table's scratch_offset; each row call reuses it).
  const bool scratch = c.name == "Conv2DFast" ||
                       c.name == "DepthwiseConv2DFast" ||
                       c.name == "DepthwiseConv2DDilatedFast";
  std::string scratch_offset = "0";
  if (scratch && c.args.size() == 10) {
    const std::string& a = c.args[9];
    const std::string prefix = "arena + ";
    if (a.rfind(prefix, 0) != 0) {
      throw InternalError("compile --fuse: unexpected scratch " + a);
    }
    scratch_offset = a.substr(prefix.size());
  }
  std::string elem;  // The table's elem_bytes: the int8 kinds' default.
  const std::string float_case = FloatRowCase(c, i, in, o, kind, filter_shape);
  if (!float_case.empty()) {
    rows += float_case;
    elem = ", 4";
  } else if ((c.name == "Conv2DFast" || c.name == "DepthwiseConv2DFast" ||
              c.name == "DepthwiseConv2D" || c.name == "Conv2D" ||
              c.name == "Conv2DDilatedFast" ||
              c.name == "DepthwiseConv2DDilatedFast") &&
             c.args.size() == (scratch ? 10u : 9u)) {
    kind = "k::FusedKind::k" + c.name;
    // k::ConvParams{nine fields}, or k::DilatedConvParams{{nine fields},
    // dh, dw}: the row call's top padding is field 6 of the nine.
    const std::vector<std::string> outer = Fields(c.args[0]);
    const bool dilated = c.args[0].rfind("k::DilatedConvParams", 0) == 0;
    if (dilated && outer.size() != 3) {
      throw InternalError("compile --fuse: unexpected parameters " + c.args[0]);
    }
    const std::string row_conv =
        dilated ? "k::DilatedConvParams{" + WithField(outer[0], 9, 6, "pad") +
                      ", " + outer[1] + ", " + outer[2] + "}"
                : WithField(c.args[0], 9, 6, "pad");
    // The table's k::DilatedConvParams member (factors 1 when undilated).
    conv = dilated ? c.args[0] : "{" + c.args[0] + "}";
    filter_shape = c.args[3];
    filter = c.args[4];
    bias = c.args[5];
    quant = c.args[6];
    rows += ConvRowCase(c, i, f.row, in, row_conv, in_rows, out_row, !dilated,
                        scratch);
  } else if ((c.name == "AveragePool" || c.name == "MaxPool") &&
             c.args.size() == 5) {
    kind = "k::FusedKind::k" + c.name;
    pool = c.args[0];
    if (!f.row.accumulate) {
      rows += "        case " + std::to_string(i) + ": {\n" +
              ConstantShapes("", out_row) + "          k::" + c.name + "(" +
              WithField(pool, 8, 4, "pad") + ", " + in_rows +
              ", x, kOut, y);\n          return;\n        }\n";
    }
  } else if ((c.name == "Add" || c.name == "AddFast") && c.args.size() == 4) {
    // AddFast gives Add's bytes (kernels_fast_test) in the same order.
    kind = "k::FusedKind::kAdd";
    add = c.args[0];
    rows += "        case " + std::to_string(i) + ":\n          k::" + c.name +
            "(" +
            WithField(add, 13, 12, std::to_string(o.shape[2] * o.shape[3])) +
            ", x, x2, y);\n          return;\n";
  } else {
    throw InputError(path + ": operator " + std::to_string(k) + " (" +
                     sg.operators[k].builtin_name +
                     "): --fuse: its lowering (k::" + c.name +
                     ") is not one the fused executor runs");
  }
  const std::int32_t r = plan.ring_record[g][i];
  std::string ring_offset = "0", ring_bytes = "0";
  if (r >= 0) {
    ring_offset = "kPlan[" + std::to_string(r) + "].offset";
    ring_bytes = std::to_string(s.ring_bytes[i]);
    checks += "    static_assert(kPlan[" + std::to_string(r) +
              "].size >= " + ring_bytes + ", \"arenaplan: ring of operator " +
              std::to_string(k) + " smaller than its " + ring_bytes +
              " bytes\");\n";
  }
  table += "      {" + kind + ", " + RowText(f.row) + ",\n       " + Shape(in) +
           ", " + Shape(o) + ", " + filter_shape + ",\n       " + conv +
           ",\n       " + pool + ",\n       " + add + ",\n       " + filter +
           ", " + bias + ", " + quant + ",\n       " + ring_offset + ", " +
           ring_bytes + ", " + std::to_string(f.state_bytes) + ", " +
           scratch_offset + elem + "},\n";
}

/// The offsets of segment `s`'s inputs (returned, comma separated) and the
/// static_asserts of their pairs with output record `y` (added to `checks`).
/// An input that is a folded alias (a RESHAPE's output, fold.hpp) is read
/// in its home's record at its alias offset; it has no pair (fuse_plan.cpp
/// gives it no distance), so the output must miss its whole home.
std::string AppendSegmentInputs(const fuse::FusePlan& plan,
                                const tflite::Subgraph& sg,
                                const fuse::Segment& s, std::size_t y,
                                std::string& checks) {
  std::string inputs;
  for (std::size_t q = 0; q < s.input_tensors.size(); ++q) {
    const std::int32_t t = s.input_tensors[q];
    const std::int32_t home = tflite::HomeOf(sg, t);
    const std::size_t x = RecordOf(plan, home);
    const std::uint64_t at =
        home == t ? 0 : sg.tensors[static_cast<std::size_t>(t)].alias_offset;
    inputs += (q ? ", " : "") + std::string("kPlan[") + std::to_string(x) +
              "].offset" + (at == 0 ? "" : " + " + std::to_string(at));
    const std::string xs = std::to_string(plan.problem.records[x].size);
    const std::string ys = "kPlan[" + std::to_string(y) + "]";
    const std::string xp = "kPlan[" + std::to_string(x) + "]";
    if (s.input_distance[q] && home == t) {
      const std::string d = std::to_string(*s.input_distance[q]);
      checks += "    static_assert(" + ys + ".offset + " + d + " <= " + xp +
                ".offset || " + xp + ".offset + " + xs + " <= " + ys +
                ".offset, \"arenaplan: the segment's output is less than " + d +
                " bytes below input tensor " +
                std::to_string(s.input_tensors[q]) + "\");\n";
    } else {
      // No overlap allowed: disjoint.
      const std::string yb = std::to_string(plan.problem.records[y].size);
      checks += "    static_assert(" + ys + ".offset + " + yb + " <= " + xp +
                ".offset || " + xp + ".offset + " + xs + " <= " + ys +
                ".offset, \"arenaplan: the segment's output overlaps input "
                "tensor " +
                std::to_string(s.input_tensors[q]) + "\");\n";
    }
  }
  return inputs;
}

/// The row schedule of segment `s` recorded (kernels::RowStepRecorder)
/// as the text of a k::RowStep table's entries, eight a line.
std::string StepsText(const fuse::Segment& s) {
  std::vector<kernels::RowOp> rows;
  for (const fuse::FusableOp& f : s.ops) rows.push_back(f.row);
  const auto n = static_cast<std::int32_t>(rows.size());
  kernels::RowStepRecorder counter(nullptr, 0);
  kernels::RowSchedule(rows.data(), n).Run(counter);
  std::vector<kernels::RowStep> steps(
      static_cast<std::size_t>(counter.count()));
  kernels::RowStepRecorder recorder(steps.data(), counter.count());
  kernels::RowSchedule(rows.data(), n).Run(recorder);
  std::string text;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    text += (k % 8 == 0 ? "      " : " ") + std::string("{") +
            std::to_string(steps[k].op) + ", " + std::to_string(steps[k].kind) +
            ", " + std::to_string(steps[k].arg) + "}," +
            (k % 8 == 7 || k + 1 == steps.size() ? "\n" : "");
  }
  return text;
}

}  // namespace

std::string FuseBody(const std::string& body, const fuse::FusePlan& plan,
                     const tflite::Model& model, const std::string& path) {
  const tflite::Subgraph& sg = model.subgraphs[0];
  const std::vector<Block> blocks = SplitBlocks(body, sg.operators.size());
  std::string out;
  std::size_t copied = 0;
  for (std::size_t g = 0; g < plan.segments.size(); ++g) {
    const fuse::Segment& s = plan.segments[g];
    const Block first = blocks[s.first_op], last = blocks[s.last_op];
    if (first.begin == std::string::npos || last.end == std::string::npos) {
      throw InternalError("compile --fuse: operator blocks not found");
    }
    out += body.substr(copied, first.begin - copied);
    copied = last.end;
    std::string table;
    std::string checks;
    std::string rows;  // The cases of the segment's Rows::Row.
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
      AppendFusedOp(body, blocks, plan, g, i, model, path, table, checks, rows);
    }
    const std::size_t y = RecordOf(plan, s.output_tensor);
    const std::string inputs = AppendSegmentInputs(plan, sg, s, y, checks);
    out += "  // operators " + std::to_string(s.first_op) + " .. " +
           std::to_string(s.last_op) +
           ": fused segment (docs/fuse.md), one output row at a time\n  {\n";
    out += checks;
    out += "    static constexpr k::FusedOp kOps[] = {\n" + table + "    };\n";
    out += "    static constexpr std::size_t kInputs[] = {" + inputs + "};\n";
    // Each row call with the operator's literals (as the unfused calls).
    // Row inlined into the schedule's loop: its frame is not a second one
    // on top of Invoke()'s.
    out +=
        "    struct Rows {\n      [[gnu::always_inline]] static void Row("
        "const k::FusedOp&, "
        "std::int32_t i, std::int32_t rows,\n                      "
        "std::int32_t pad, const std::int8_t* x,\n                      "
        "const std::int8_t* x2, std::int8_t* y,\n                      "
        "std::int8_t* scratch) {\n        (void)rows;\n"
        "        (void)pad;\n        (void)x2;\n        (void)scratch;\n"
        "        switch (i) {\n" +
        rows +
        "          default:\n            return;\n        }\n"
        "      }\n    };\n";
    // The schedule's state sized to the segment (row_schedule.hpp).
    const std::string n = std::to_string(s.ops.size());
    out += "    static constexpr k::FusedSegment kSegment{kOps, " + n +
           ", kInputs, kPlan[" + std::to_string(y) + "].offset};\n";
    // The schedule's calls, recorded here (row_schedule.hpp): replayed,
    // not derived again at run time. The element size a constant (every op
    // of a segment has its type, fuse.cpp), so the row addresses fold as
    // the int8 ones always did.
    out += "    static constexpr k::RowStep kSteps[] = {\n" + StepsText(s) +
           "    };\n";
    // Their arena offsets worked out by the compiler from kOps, kInputs
    // and kPlan (fused.hpp ResolveSteps): a row that does not fit its ring
    // fails the build, and the loop that runs them keeps no schedule state.
    const std::string elem = std::to_string(s.ops[0].elem_bytes);
    const std::string resolve =
        "k::ResolveSteps<k::ResolvedOffset<kArenaSize>, " + n + ", " + elem +
        ", ";
    out += "    static constexpr std::size_t kCount =\n        " + resolve +
           "0>(kSegment, kSteps).count;\n"
           "    static constexpr auto kRun =\n        " +
           resolve +
           "kCount>(kSegment, kSteps);\n"
           "    static_assert(kRun.ok, \"arenaplan: a row of the fused segment "
           "of operators " +
           std::to_string(s.first_op) + " .. " + std::to_string(s.last_op) +
           " does not fit its ring\");\n"
           "    k::RunResolved<Rows>(kSegment, kRun, "
           "reinterpret_cast<std::uint8_t*>(arena));\n"
           "  }\n";
  }
  out += body.substr(copied);
  return out;
}

}  // namespace arenaplan::compile
