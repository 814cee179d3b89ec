// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "codegen/base/errors.hpp"
#include "codegen/emit/utf8.hpp"
#include "codegen/planner/planner.hpp"

namespace arenaplan {
namespace {

// Canvas geometry, in SVG user units (pixels at 100%).
constexpr double kWidth = 1400;
constexpr double kHeight = 900;
constexpr double kLeft = 96;  // Room for the offset labels.
constexpr double kRight = 24;
constexpr double kTop = 76;     // Room for the two title lines.
constexpr double kBottom = 56;  // Room for operator labels + axis title.
constexpr double kPlotWidth = kWidth - kLeft - kRight;
constexpr double kPlotHeight = kHeight - kTop - kBottom;
/// Average advance of one character of the sans-serif label font, as a
/// fraction of the font size (measured on DejaVu Sans digits and letters).
constexpr double kCharWidth = 0.58;

/// Fixed-point text, so the document does not depend on locale or on
/// iostream float formatting.
std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

/// "512 B", "12.5 KiB", "3.2 MiB".
std::string HumanBytes(std::uint64_t n) {
  char buf[32];
  if (n < 1024) {
    std::snprintf(buf, sizeof buf, "%llu B",
                  static_cast<unsigned long long>(n));
  } else if (n < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(n) / 1024);
  } else if (n < 1024ull * 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f MiB",
                  static_cast<double>(n) / (1024.0 * 1024));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f GiB",
                  static_cast<double>(n) / (1024.0 * 1024 * 1024));
  }
  return buf;
}

/// The smallest 1-2-5 step (times a power of ten) giving at most
/// `max_ticks` intervals over [0, span].
std::uint64_t NiceStep(std::uint64_t span, std::uint64_t max_ticks) {
  std::uint64_t magnitude = 1;
  while (true) {
    for (std::uint64_t f : {1, 2, 5}) {
      const std::uint64_t step = f * magnitude;
      if (span / step <= max_ticks) return step;
    }
    magnitude *= 10;
  }
}

/// A light, distinct fill for tensor i: hues spaced by the golden angle.
std::string Fill(std::size_t i) {
  const double hue = std::fmod(static_cast<double>(i) * 137.50776, 360.0);
  // HSL(hue, 60%, 78%) to RGB.
  const double s = 0.60, l = 0.78;
  const double c = (1 - std::fabs(2 * l - 1)) * s;
  const double hp = hue / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (hp < 1) {
    r = c;
    g = x;
  } else if (hp < 2) {
    r = x;
    g = c;
  } else if (hp < 3) {
    g = c;
    b = x;
  } else if (hp < 4) {
    g = x;
    b = c;
  } else if (hp < 5) {
    r = x;
    b = c;
  } else {
    r = c;
    b = x;
  }
  const double m = l - c / 2;
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x",
                static_cast<int>(std::lround((r + m) * 255)),
                static_cast<int>(std::lround((g + m) * 255)),
                static_cast<int>(std::lround((b + m) * 255)));
  return buf;
}

/// The plot's scales: `ops` operator columns across, `top` bytes up.
struct Canvas {
  std::uint64_t ops = 1;
  std::uint64_t top = 1;  ///< Bytes at the top of the plot.
  double col = 0;         ///< Width of one operator column.
  double per_byte = 0;    ///< Height of one byte.

  [[nodiscard]] double X(std::uint64_t op) const {
    return kLeft + static_cast<double>(op) * col;
  }
  [[nodiscard]] double Y(std::uint64_t addr) const {
    return kTop + kPlotHeight - static_cast<double>(addr) * per_byte;
  }
};

/// Every operator and byte of the plan, its arena and lower bound in view.
Canvas MakeCanvas(const PlanResult& plan) {
  const UsageProblem& problem = plan.problem;
  Canvas c;
  c.ops = std::max<std::uint64_t>(problem.operator_count, 1);
  c.top = std::max<std::uint64_t>({plan.arena_bytes, plan.lower_bound, 1});
  for (std::size_t i = 0; i < problem.records.size(); ++i) {
    c.ops = std::max<std::uint64_t>(c.ops, problem.records[i].last_op + 1ull);
    c.top = std::max(c.top, plan.offsets[i] + problem.records[i].size);
  }
  c.col = kPlotWidth / static_cast<double>(c.ops);
  c.per_byte = kPlotHeight / static_cast<double>(c.top);
  return c;
}

/// A tensor's name, else "tensor ID", else "tensor INDEX".
std::string TensorLabel(const UsageProblem& problem, std::size_t i) {
  if (i < problem.names.size() && !problem.names[i].empty()) {
    return problem.names[i];
  }
  return "tensor " +
         (i < problem.ids.size() ? problem.ids[i] : std::to_string(i));
}

/// The XML prologue, the background and the two title lines.
void WriteTitle(std::ostringstream& o, const PlanResult& plan) {
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  std::size_t empty = 0;
  for (const TensorUsageRecord& r : problem.records) empty += r.size == 0;
  const bool offsets = plan.approach == Approach::kOffsets;
  char ratio[32] = "";
  if (plan.lower_bound > 0) {
    std::snprintf(ratio, sizeof ratio, " = %.3f x lower bound",
                  static_cast<double>(plan.arena_bytes) /
                      static_cast<double>(plan.lower_bound));
  }

  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\""
    << Num(kWidth) << "\" height=\"" << Num(kHeight) << "\" viewBox=\"0 0 "
    << Num(kWidth) << " " << Num(kHeight)
    << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
    << "<title>arenaplan plan of " << XmlText(problem.source) << "</title>\n"
    << "<rect x=\"0\" y=\"0\" width=\"" << Num(kWidth) << "\" height=\""
    << Num(kHeight) << "\" fill=\"#ffffff\"/>\n"
    << "<text x=\"" << Num(kLeft)
    << "\" y=\"26\" font-size=\"17\" "
       "font-weight=\"bold\">"
    << XmlText(problem.source) << ": arena " << plan.arena_bytes << " B ("
    << HumanBytes(plan.arena_bytes) << ")" << ratio << "</text>\n"
    << "<text x=\"" << Num(kLeft) << "\" y=\"48\" font-size=\"13\">strategy "
    << XmlText(plan.strategy) << " ("
    << (offsets ? "Offset Calculation" : "Shared Objects") << "); lower bound "
    << plan.lower_bound << " B ("
    << (offsets ? "largest operator breadth" : "sum of positional maximums")
    << "); naive " << plan.naive_bytes << " B; " << n << " tensors (" << empty
    << " empty, not drawn), " << problem.operator_count
    << " operators, alignment " << plan.alignment << " B</text>\n";
}

/// The plot frame, byte and operator ticks, and the axis titles.
void WriteGrid(std::ostringstream& o, const PlanResult& plan, const Canvas& c) {
  const UsageProblem& problem = plan.problem;
  // Plot frame and grid.
  o << "<rect x=\"" << Num(kLeft) << "\" y=\"" << Num(kTop) << "\" width=\""
    << Num(kPlotWidth) << "\" height=\"" << Num(kPlotHeight)
    << "\" fill=\"#f7f7f7\" stroke=\"#888888\" stroke-width=\"1\"/>\n";
  o << "<g font-size=\"11\" fill=\"#333333\">\n";
  // Byte ticks below 4 KiB, else whole KiB (1-2-5 steps of KiB).
  const std::uint64_t y_step =
      c.top < 4096 ? NiceStep(c.top, 10) : NiceStep(c.top / 1024, 10) * 1024;
  for (std::uint64_t a = 0; a <= c.top; a += y_step) {
    const double y = c.Y(a);
    o << "<line x1=\"" << Num(kLeft - 4) << "\" y1=\"" << Num(y) << "\" x2=\""
      << Num(kLeft + kPlotWidth) << "\" y2=\"" << Num(y)
      << "\" stroke=\"#dddddd\" stroke-width=\"0.8\"/>\n"
      << "<text x=\"" << Num(kLeft - 7) << "\" y=\"" << Num(y + 4)
      << "\" text-anchor=\"end\">" << HumanBytes(a) << "</text>\n";
    if (c.top - a < y_step) break;
  }
  const std::uint64_t x_step = NiceStep(c.ops - 1 == 0 ? 1 : c.ops - 1, 25);
  for (std::uint64_t k = 0; k < c.ops; k += x_step) {
    const double x = c.X(k) + c.col / 2;
    o << "<line x1=\"" << Num(x) << "\" y1=\"" << Num(kTop + kPlotHeight)
      << "\" x2=\"" << Num(x) << "\" y2=\"" << Num(kTop + kPlotHeight + 4)
      << "\" stroke=\"#888888\" stroke-width=\"1\"/>\n"
      << "<text x=\"" << Num(x) << "\" y=\"" << Num(kTop + kPlotHeight + 17)
      << "\" text-anchor=\"middle\">" << k;
    if (k < problem.operator_names.size() &&
        !problem.operator_names[k].empty()) {
      o << "<title>operator " << k << ": " << XmlText(problem.operator_names[k])
        << "</title>";
    }
    o << "</text>\n";
    if (c.ops - 1 - k < x_step) break;
  }
  o << "<text x=\"" << Num(kLeft + kPlotWidth / 2) << "\" y=\""
    << Num(kHeight - 14)
    << "\" text-anchor=\"middle\" font-size=\"13\">operator (execution "
       "order; a tensor spans its first to last operator)</text>\n"
    << "<text transform=\"translate(18," << Num(kTop + kPlotHeight / 2)
    << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">arena offset"
       " (bytes)</text>\n"
    << "</g>\n";
}

/// One rectangle per sized tensor, labelled where the label fits.
void WriteTensors(std::ostringstream& o, const PlanResult& plan,
                  const Canvas& c) {
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  // Tensors.
  o << "<g stroke=\"#333333\" stroke-width=\"0.5\" font-size=\"11\">\n";
  for (std::size_t i = 0; i < n; ++i) {
    const TensorUsageRecord& r = problem.records[i];
    if (r.size == 0) continue;
    const std::string name = TensorLabel(problem, i);
    const std::string id = i < problem.ids.size() ? problem.ids[i] : "";
    const double x = c.X(r.first_op);
    const double w = c.X(r.last_op + 1ull) - x;
    const double y = c.Y(plan.offsets[i] + r.size);
    // Keep a sliver visible for tiny tensors; the tooltip gives the truth.
    const double h = std::max(static_cast<double>(r.size) * c.per_byte, 0.6);
    o << "<g><title>" << XmlText(name) << " (id " << XmlText(id) << ")\n"
      << r.size << " B at offset " << plan.offsets[i] << ".."
      << plan.offsets[i] + r.size - 1 << "\noperators " << r.first_op << ".."
      << r.last_op << "</title>"
      << "<rect x=\"" << Num(x) << "\" y=\"" << Num(y) << "\" width=\""
      << Num(w) << "\" height=\"" << Num(h) << "\" fill=\"" << Fill(i)
      << "\"/>";
    // The longest label that fits inside the rectangle, if any.
    const std::string full = name + " " + HumanBytes(r.size);
    const std::string size_only = HumanBytes(r.size);
    for (double font : {11.0, 9.0}) {
      std::string label;
      if (h < font + 3) continue;
      if (full.size() * font * kCharWidth + 6 <= w) {
        label = full;
      } else if (size_only.size() * font * kCharWidth + 6 <= w) {
        label = size_only;
      }
      if (label.empty()) continue;
      o << "<text x=\"" << Num(x + w / 2) << "\" y=\""
        << Num(y + h / 2 + font * 0.35) << "\" font-size=\"" << Num(font)
        << "\" text-anchor=\"middle\" stroke=\"none\" fill=\"#111111\">"
        << XmlText(label) << "</text>";
      break;
    }
    o << "</g>\n";
  }
  o << "</g>\n";
}

/// The lower bound and arena lines, labelled at the right end.
void WriteBoundLines(std::ostringstream& o, const PlanResult& plan,
                     const Canvas& c) {
  const double lb_y = c.Y(plan.lower_bound);
  const double arena_y = c.Y(plan.arena_bytes);
  o << "<g font-size=\"12\" font-weight=\"bold\">\n"
    << "<line x1=\"" << Num(kLeft) << "\" y1=\"" << Num(lb_y) << "\" x2=\""
    << Num(kLeft + kPlotWidth) << "\" y2=\"" << Num(lb_y)
    << "\" stroke=\"#d62728\" stroke-width=\"1.6\" "
       "stroke-dasharray=\"8,5\"/>\n"
    << "<line x1=\"" << Num(kLeft) << "\" y1=\"" << Num(arena_y) << "\" x2=\""
    << Num(kLeft + kPlotWidth) << "\" y2=\"" << Num(arena_y)
    << "\" stroke=\"#1f3f99\" stroke-width=\"1.6\"/>\n";
  // When the two lines are close, put the lower-bound label below its line.
  const bool close = std::fabs(lb_y - arena_y) < 16;
  o << "<text x=\"" << Num(kLeft + kPlotWidth - 4) << "\" y=\""
    << Num(arena_y - 4) << "\" text-anchor=\"end\" fill=\"#1f3f99\">arena "
    << plan.arena_bytes << " B</text>\n"
    << "<text x=\"" << Num(kLeft + 4) << "\" y=\""
    << Num(close ? lb_y + 14 : lb_y - 4) << "\" fill=\"#d62728\">lower bound "
    << plan.lower_bound << " B</text>\n"
    << "</g>\n";
}

/// Allowed overlaps (docs/overlap.md): the bytes an operator's output
/// shares with the input it reads last, hatched and outlined in the
/// operator's column; a legend line; the overlap lower bound.
void WriteOverlaps(std::ostringstream& o, const PlanResult& plan,
                   const Canvas& c) {
  const UsageProblem& problem = plan.problem;
  // Allowed overlaps (docs/overlap.md): the bytes an operator's output
  // shares with the input it reads last, hatched and outlined in the
  // operator's column; a legend line; the overlap lower bound.
  std::size_t used = 0;
  std::ostringstream shared;
  for (std::size_t k = 0; k < plan.overlaps.size(); ++k) {
    if (!OverlapUsed(plan, k)) continue;
    ++used;
    const OverlapPair& p = plan.overlaps[k];
    const std::uint64_t lo =
        std::max(plan.offsets[p.input], plan.offsets[p.output]);
    const std::uint64_t hi =
        std::min(plan.offsets[p.input] + problem.records[p.input].size,
                 plan.offsets[p.output] + problem.records[p.output].size);
    const double x = c.X(p.op);
    const double y = c.Y(hi);
    const double h = std::max(static_cast<double>(hi - lo) * c.per_byte, 0.6);
    shared << "<rect x=\"" << Num(x) << "\" y=\"" << Num(y) << "\" width=\""
           << Num(c.col) << "\" height=\"" << Num(h) << "\"><title>operator "
           << p.op << ": output " << XmlText(TensorLabel(problem, p.output))
           << " shares " << hi - lo << " B with input "
           << XmlText(TensorLabel(problem, p.input)) << " ("
           << (p.relation == OverlapRelation::kAlias
                   ? std::string("alias")
                   : "output at least " + std::to_string(p.distance) +
                         " B below the input")
           << ")</title></rect>\n";
  }
  const double olb_y = c.Y(plan.overlap_lower_bound);
  o << "<defs><pattern id=\"overlap-hatch\" width=\"6\" height=\"6\" "
       "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
       "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#111111\" "
       "stroke-width=\"1.5\"/></pattern></defs>\n"
    << "<g fill=\"url(#overlap-hatch)\" stroke=\"#111111\" "
       "stroke-width=\"1.2\">\n"
    << shared.str() << "</g>\n"
    << "<g font-size=\"12\" font-weight=\"bold\">\n"
    << "<line x1=\"" << Num(kLeft) << "\" y1=\"" << Num(olb_y) << "\" x2=\""
    << Num(kLeft + kPlotWidth) << "\" y2=\"" << Num(olb_y)
    << "\" stroke=\"#2ca02c\" stroke-width=\"1.6\" "
       "stroke-dasharray=\"3,4\"/>\n"
    << "<text x=\"" << Num(kLeft + kPlotWidth / 2) << "\" y=\""
    << Num(olb_y + 14) << "\" text-anchor=\"middle\" fill=\"#2ca02c\">"
    << "overlap lower bound " << plan.overlap_lower_bound << " B</text>\n"
    << "</g>\n"
    << "<text x=\"" << Num(kLeft) << "\" y=\"68\" font-size=\"12\">"
    << "hatched: bytes an operator's output shares with the input it "
       "reads last (allowed overlap; "
    << used << " of " << plan.overlaps.size() << " pairs used)</text>\n";
}

/// Fused segments (docs/fuse.md): a shaded, labelled band over each
/// segment's column, drawn before the tensors.
void WriteSegmentBands(std::ostringstream& o, const Canvas& c,
                       const SvgSegments& segs) {
  o << "<g font-size=\"11\">\n";
  for (std::size_t k = 0; k < segs.steps.size(); ++k) {
    const std::uint32_t s = segs.steps[k];
    const std::string label = k < segs.labels.size() ? segs.labels[k] : "";
    o << "<g class=\"segment\"><title>" << XmlText(label) << " (step " << s
      << ")</title><rect x=\"" << Num(c.X(s)) << "\" y=\"" << Num(kTop)
      << "\" width=\"" << Num(c.col) << "\" height=\"" << Num(kPlotHeight)
      << "\" fill=\"#fff3c4\" stroke=\"#b8860b\" stroke-width=\"1\" "
         "stroke-dasharray=\"6,3\"/><text x=\""
      << Num(c.X(s) + c.col / 2) << "\" y=\"" << Num(kTop + 13)
      << "\" text-anchor=\"middle\" fill=\"#8a6500\">" << XmlText(label)
      << "</text></g>\n";
  }
  o << "</g>\n";
}

/// Rings of fused segments: cross-hatched, dashed outline, over the
/// tensors' rectangles; a legend line.
void WriteRings(std::ostringstream& o, const PlanResult& plan, const Canvas& c,
                const SvgSegments& segs) {
  const UsageProblem& problem = plan.problem;
  o << "<defs><pattern id=\"ring-hatch\" width=\"7\" height=\"7\" "
       "patternUnits=\"userSpaceOnUse\"><path d=\"M0,0 L7,7 M7,0 L0,7\" "
       "stroke=\"#7a3e9d\" stroke-width=\"0.9\"/></pattern></defs>\n"
    << "<g class=\"rings\" fill=\"url(#ring-hatch)\" stroke=\"#7a3e9d\" "
       "stroke-width=\"1.4\" stroke-dasharray=\"4,2\">\n";
  for (std::uint32_t i : segs.rings) {
    const TensorUsageRecord& r = problem.records[i];
    if (r.size == 0) continue;
    const double x = c.X(r.first_op);
    const double h = std::max(static_cast<double>(r.size) * c.per_byte, 0.6);
    o << "<rect x=\"" << Num(x) << "\" y=\""
      << Num(c.Y(plan.offsets[i] + r.size)) << "\" width=\""
      << Num(c.X(r.last_op + 1ull) - x) << "\" height=\"" << Num(h)
      << "\"><title>ring: " << XmlText(TensorLabel(problem, i)) << ", "
      << r.size << " B at offset " << plan.offsets[i] << "</title></rect>\n";
  }
  o << "</g>\n<text x=\"" << Num(kLeft + kPlotWidth) << "\" y=\"68\" "
    << "text-anchor=\"end\" font-size=\"12\" fill=\"#7a3e9d\">rings ("
    << segs.rings.size() << "): cross-hatched, dashed; segments ("
    << segs.steps.size() << "): shaded columns</text>\n";
}

/// The plot, with `segs` drawn when not null.
std::string Emit(const PlanResult& plan, const SvgSegments* segs) {
  const std::size_t n = plan.problem.records.size();
  if (plan.offsets.size() != n) {
    throw InternalError("svg: plan has " + std::to_string(plan.offsets.size()) +
                        " offsets for " + std::to_string(n) + " records");
  }
  const Canvas c = MakeCanvas(plan);
  if (segs != nullptr) {
    for (std::uint32_t s : segs->steps) {
      if (s >= c.ops) throw InternalError("svg: segment step out of range");
    }
    for (std::uint32_t i : segs->rings) {
      if (i >= n) throw InternalError("svg: ring record out of range");
    }
  }
  std::ostringstream o;
  WriteTitle(o, plan);
  WriteGrid(o, plan, c);
  if (segs != nullptr) WriteSegmentBands(o, c, *segs);
  WriteTensors(o, plan, c);
  if (segs != nullptr) WriteRings(o, plan, c, *segs);
  WriteBoundLines(o, plan, c);
  if (plan.overlap) WriteOverlaps(o, plan, c);
  o << "</svg>\n";
  return o.str();
}

}  // namespace

std::string EmitSvg(const PlanResult& plan) { return Emit(plan, nullptr); }

std::string EmitSvg(const PlanResult& plan, const SvgSegments& segments) {
  return Emit(plan, &segments);
}

}  // namespace arenaplan
