// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/report.hpp"

#include <algorithm>
#include <sstream>

#include "codegen/emit/utf8.hpp"

namespace arenaplan {
namespace {

/// 1234567 as "1,234,567".
std::string Grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// A numeric cell: the grouped figure shown, the raw one in data-v (what
/// the sort and the tests read).
std::string NumberCell(std::optional<std::uint64_t> v) {
  if (!v) return "<td class=\"n\" data-v=\"\">&mdash;</td>";
  return "<td class=\"n\" data-v=\"" + std::to_string(*v) + "\">" +
         Grouped(*v) + "</td>";
}

constexpr const char* kStyle = R"(
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left;
         vertical-align: top; }
th { background: #f0f0f0; }
#operators th { cursor: pointer; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.sha { color: #666; font-size: 0.85em; word-break: break-all; }
.drawing { overflow-x: auto; max-width: 100%; border: 1px solid #ddd; }
)";

/// Sorts the operator table by the clicked column (numbers by data-v).
constexpr const char* kScript = R"(
(function () {
  var table = document.getElementById('operators');
  var heads = table.tHead.rows[0].cells;
  for (var c = 0; c < heads.length; c++) {
    heads[c].addEventListener('click', (function (col) {
      return function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var asc = table.getAttribute('data-sort') !== String(col);
        rows.sort(function (a, b) {
          var x = a.cells[col], y = b.cells[col];
          var vx = x.getAttribute('data-v'), vy = y.getAttribute('data-v');
          var r = vx !== null && vy !== null
              ? (Number(vx) || 0) - (Number(vy) || 0)
              : x.textContent.localeCompare(y.textContent);
          return asc ? r : -r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        table.setAttribute('data-sort', asc ? String(col) : '');
      };
    })(c));
  }
})();
)";

void Summary(const Report& r, std::ostringstream& o) {
  o << "<h2>Summary</h2>\n<table id=\"summary\">\n"
    << "<tr><th>operators in the file</th>" << NumberCell(r.file_operators)
    << "</tr>\n<tr><th>multiply-accumulates</th><td class=\"n\" "
       "id=\"summary-macs\" data-v=\""
    << r.macs << "\">" << Grouped(r.macs) << "</td></tr>\n"
    << "<tr><th>parameters (constant elements)</th>" << NumberCell(r.parameters)
    << "</tr>\n"
    << "<tr><th>constants in flash (bytes)</th>" << NumberCell(r.constant_bytes)
    << "</tr>\n";
  if (r.profile_total) {
    o << "<tr><th>" << XmlText(r.profile_unit) << " per inference</th>"
      << NumberCell(*r.profile_total) << "</tr>\n";
  }
  o << "</table>\n<h3>Arena (bytes)</h3>\n<table id=\"arenas\">\n"
    << "<tr><th>planning</th><th>arena</th><th>note</th></tr>\n";
  for (const ReportArena& a : r.arenas) {
    o << "<tr><td>" << XmlText(a.mode) << "</td>" << NumberCell(a.bytes)
      << "<td>" << XmlText(a.note) << "</td></tr>\n";
  }
  o << "</table>\n";
}

/// Live bytes over operator steps as a step chart, with each arena a
/// dashed line.
void LiveChart(const Report& r, std::ostringstream& o) {
  std::uint64_t top = 1;
  std::size_t steps = 0;
  for (const ReportOperator& op : r.operators) {
    if (op.live_bytes) top = std::max(top, *op.live_bytes);
    ++steps;
  }
  for (const ReportArena& a : r.arenas) {
    if (a.bytes) top = std::max(top, *a.bytes);
  }
  const double w = 800, h = 220, left = 70, bottom = 20;
  const double dx =
      steps == 0 ? 0 : (w - left - 10) / static_cast<double>(steps);
  auto y = [&](std::uint64_t v) {
    return h - bottom -
           (h - bottom - 10) * static_cast<double>(v) /
               static_cast<double>(top);
  };
  o << "<h2>Live arena bytes over operators</h2>\n"
    << "<svg id=\"live\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w
    << "\" height=\"" << h << "\" role=\"img\">\n"
    << "<line x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w
    << "\" y2=\"" << h - bottom << "\" stroke=\"#888\"/>\n"
    << "<text x=\"4\" y=\"14\" font-size=\"11\">" << Grouped(top)
    << " B</text>\n";
  std::string path;
  std::size_t i = 0;
  for (const ReportOperator& op : r.operators) {
    const double x = left + dx * static_cast<double>(i++);
    if (!op.live_bytes) continue;
    const double yy = y(*op.live_bytes);
    o << "<rect x=\"" << x << "\" y=\"" << yy << "\" width=\""
      << std::max(dx, 1.0) << "\" height=\"" << h - bottom - yy
      << "\" fill=\"#7aa6d6\"><title>operator " << op.index << " "
      << XmlText(op.builtin) << ": " << Grouped(*op.live_bytes)
      << " B live</title></rect>\n";
  }
  const char* colours[] = {"#c0392b", "#27ae60", "#8e44ad", "#d35400"};
  std::size_t k = 0;
  for (const ReportArena& a : r.arenas) {
    if (!a.bytes) continue;
    const char* colour = colours[k++ % 4];
    o << "<line x1=\"" << left << "\" y1=\"" << y(*a.bytes) << "\" x2=\"" << w
      << "\" y2=\"" << y(*a.bytes) << "\" stroke=\"" << colour
      << "\" stroke-dasharray=\"6 3\"><title>" << XmlText(a.mode) << ": "
      << Grouped(*a.bytes) << " B</title></line>\n";
  }
  o << "</svg>\n<p>Bars: bytes of the tensors alive at each operator's step "
       "(default plan, sizes aligned). Dashed lines: the arena of each "
       "planning mode:";
  k = 0;
  for (const ReportArena& a : r.arenas) {
    if (!a.bytes) continue;
    o << " <span style=\"color:" << colours[k++ % 4] << "\">&#9473; "
      << XmlText(a.mode) << "</span>";
  }
  o << ".</p>\n";
}

void OperatorTable(const Report& r, std::ostringstream& o) {
  const bool profile = r.profile_total.has_value();
  o << "<h2>Operators</h2>\n<table id=\"operators\">\n<thead><tr><th>#</th>"
       "<th>operator</th><th>inputs</th><th>outputs</th><th>MACs</th>"
       "<th>constant bytes</th><th>live bytes</th><th>applied</th>";
  if (profile) {
    o << "<th>" << XmlText(r.profile_unit) << "</th><th>share %</th>";
  }
  o << "</tr></thead>\n<tbody>\n";
  for (const ReportOperator& op : r.operators) {
    o << "<tr>" << NumberCell(op.index) << "<td>" << XmlText(op.builtin)
      << "</td><td>" << XmlText(op.inputs) << "</td><td>" << XmlText(op.outputs)
      << "</td>" << NumberCell(op.macs) << NumberCell(op.constant_bytes)
      << NumberCell(op.live_bytes) << "<td>" << XmlText(op.applied) << "</td>";
    if (profile) {
      o << NumberCell(op.instructions);
      if (op.instructions && *r.profile_total != 0) {
        const std::uint64_t per_mille =
            *op.instructions * 1000 / *r.profile_total;
        o << "<td class=\"n\" data-v=\"" << per_mille << "\">" << per_mille / 10
          << "." << per_mille % 10 << "</td>";
      } else {
        o << "<td class=\"n\" data-v=\"\">&mdash;</td>";
      }
    }
    o << "</tr>\n";
  }
  o << "</tbody>\n</table>\n";
}

/// The SVG document without its XML declaration (inline in HTML).
std::string InlineSvg(const std::string& svg) {
  const std::size_t at = svg.find("<svg");
  return at == std::string::npos ? std::string() : svg.substr(at);
}

}  // namespace

std::string EmitReportHtml(const Report& r) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<title>arenaplan report: " << XmlText(r.model) << "</title>\n<style>"
    << kStyle << "</style>\n</head>\n<body>\n<h1>" << XmlText(r.model)
    << "</h1>\n<p class=\"sha\">sha256 " << XmlText(r.sha256)
    << " &middot; made by <code>arenaplan report</code></p>\n";
  Summary(r, o);
  o << "<h2>Plan (default)</h2>\n<p>Operators in execution order across, "
       "arena offset up; hover over a tensor for its name, size and "
       "lifetime.</p>\n<div class=\"drawing\">\n"
    << InlineSvg(r.plan_svg) << "</div>\n";
  LiveChart(r, o);
  OperatorTable(r, o);
  o << "<script>" << kScript << "</script>\n</body>\n</html>\n";
  return o.str();
}

}  // namespace arenaplan
