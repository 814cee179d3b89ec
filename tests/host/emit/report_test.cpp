// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// EmitReportHtml: a hand-made report's page holds what it was given, once,
// and no name can become markup.
#include "codegen/emit/report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace arenaplan {
namespace {

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

Report TwoOperators() {
  Report r;
  r.model = "m<script>.tflite";
  r.sha256 = std::string(64, 'a');
  r.file_operators = 2;
  r.macs = 1234567;
  r.arenas = {{"arenaplan (default)", 4096, ""},
              {"TFLM's planner", std::nullopt, "refused: <b>x</b>"}};
  r.plan_svg = "<?xml version=\"1.0\"?>\n<svg id=\"plan\"></svg>\n";
  ReportOperator a;
  a.index = 0;
  a.builtin = "CONV_2D";
  a.macs = 1234567;
  a.live_bytes = 4096;
  a.inputs = "<script>alert(1)</script>";
  ReportOperator b;
  b.index = 1;
  b.builtin = "RESHAPE";
  b.applied = "folded: alias & more";
  r.operators = {a, b};
  return r;
}

TEST(ReportHtml, HasOneRowPerOperatorAndTheSummary) {
  const std::string html = EmitReportHtml(TwoOperators());
  const std::size_t body = html.find("<tbody>");
  ASSERT_NE(body, std::string::npos);
  EXPECT_EQ(Count(html.substr(body), "<tr>"), 2u);
  EXPECT_NE(html.find("id=\"summary-macs\" data-v=\"1234567\">1,234,567<"),
            std::string::npos);
  // The SVG is inline, without its XML declaration.
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"plan\">"), std::string::npos);
  // An arena with no figure shows a dash and its note.
  EXPECT_NE(html.find("data-v=\"\">&mdash;</td><td>refused: &lt;b&gt;x"),
            std::string::npos);
}

TEST(ReportHtml, EscapesEveryName) {
  const std::string html = EmitReportHtml(TwoOperators());
  // One script element: the page's own.
  EXPECT_EQ(Count(html, "<script"), 1u);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("m&lt;script&gt;.tflite"), std::string::npos);
  EXPECT_NE(html.find("alias &amp; more"), std::string::npos);
}

TEST(ReportHtml, ShowsAProfilesShares) {
  Report r = TwoOperators();
  r.profile_total = 1000;
  r.operators[0].instructions = 875;
  const std::string html = EmitReportHtml(r);
  EXPECT_NE(html.find("data-v=\"875\">875</td><td class=\"n\" "
                      "data-v=\"875\">87.5</td>"),
            std::string::npos);
}

}  // namespace
}  // namespace arenaplan
