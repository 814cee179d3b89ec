// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan report` in a real browser: every shared and corpus model's
// page is opened in headless Chromium (installed by scripts/bootstrap.sh),
// which runs the page's script and prints the document it ended with and
// every console message. Each page must log nothing, have one table row
// per operator of the file (counted by the reader), MACs per row equal to
// a count made here from the tensor shapes, and a summary equal to their
// sum. A page of a model whose names are markup shows them as text. A
// screenshot of person_detect's page is kept as report_person_detect.png
// in the test's working directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;
using testing_util::CommandResult;
using testing_util::RunCommand;

/// Headless Chromium on a local file: `mode` is "--dump-dom" or
/// "--screenshot=PATH"; console messages go to stderr, which RunCommand
/// folds into the output after the DOM.
CommandResult Browse(const fs::path& page, const std::string& mode) {
  return RunCommand(
      "DBUS_SESSION_BUS_ADDRESS=/dev/null timeout 120 chromium --headless "
      "--no-sandbox --disable-gpu --no-first-run --disable-extensions "
      "--disable-background-networking --disable-component-update "
      "--disable-sync --mute-audio --window-size=1300,2400 "
      "--enable-logging=stderr --v=0 " +
      mode + " 'file://" + page.string() + "'");
}

/// The console lines of a Browse output.
std::vector<std::string> ConsoleLines(const std::string& output) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while ((at = output.find(":CONSOLE", at)) != std::string::npos) {
    const std::size_t end = output.find('\n', at);
    lines.push_back(output.substr(at, end - at));
    at = end == std::string::npos ? output.size() : end;
  }
  return lines;
}

/// The data-v values of one table row's cells, in order (empty: no figure).
std::vector<std::string> RowValues(const std::string& row) {
  std::vector<std::string> v;
  std::size_t at = 0;
  while ((at = row.find("data-v=\"", at)) != std::string::npos) {
    at += 8;
    v.push_back(row.substr(at, row.find('"', at) - at));
  }
  return v;
}

/// The rows of the operator table's body.
std::vector<std::string> OperatorRows(const std::string& dom) {
  const std::size_t table = dom.find("id=\"operators\"");
  const std::size_t body = dom.find("<tbody>", table);
  const std::size_t end = dom.find("</tbody>", body);
  std::vector<std::string> rows;
  if (table == std::string::npos || body == std::string::npos) return rows;
  std::size_t at = body;
  while ((at = dom.find("<tr", at + 1)) != std::string::npos && at < end) {
    rows.push_back(dom.substr(at, dom.find("</tr>", at) - at));
  }
  return rows;
}

std::uint64_t Elements(const tflite::Tensor& t) {
  std::uint64_t n = 1;
  for (std::int32_t d : t.shape) n *= static_cast<std::uint64_t>(d);
  return n;
}

/// Multiply-accumulates of operator `op`, counted here from the shapes:
/// an output element of a convolution takes one product per filter tap
/// and input channel, of a depthwise one per tap, of a fully connected
/// layer one per input feature; a transposed convolution spreads each
/// input element over filter taps x output channels; a batched matrix
/// product takes the shared dimension per output element.
std::uint64_t ExpectedMacs(const tflite::Model& m, const tflite::Operator& op) {
  const auto& t = m.subgraphs[0].tensors;
  auto at = [&](std::size_t i) -> const tflite::Tensor& {
    return t[static_cast<std::size_t>(op.inputs[i])];
  };
  const std::uint64_t out =
      op.outputs.empty() ? 0
                         : Elements(t[static_cast<std::size_t>(op.outputs[0])]);
  switch (op.builtin_code) {
    case tflite::BuiltinOp::kConv2D: {
      const auto& f = at(1).shape;  // [OC, KH, KW, IC]
      return out * static_cast<std::uint64_t>(f[1] * f[2] * f[3]);
    }
    case tflite::BuiltinOp::kDepthwiseConv2D: {
      const auto& f = at(1).shape;  // [1, KH, KW, OC]
      return out * static_cast<std::uint64_t>(f[1] * f[2]);
    }
    case tflite::BuiltinOp::kFullyConnected:
      return out * static_cast<std::uint64_t>(at(1).shape[1]);
    case tflite::BuiltinOp::kTransposeConv: {
      const auto& f = at(1).shape;  // [OC, KH, KW, IC]
      return Elements(at(2)) * static_cast<std::uint64_t>(f[0] * f[1] * f[2]);
    }
    case tflite::BuiltinOp::kBatchMatmul: {
      const auto& a = at(0).shape;
      const auto* o = std::get_if<tflite::BatchMatMulOptions>(&op.options);
      return out * static_cast<std::uint64_t>(
                       a[a.size() - (o != nullptr && o->adj_x ? 2 : 1)]);
    }
    default:
      return 0;
  }
}

/// Every .tflite of ../shared/models and ../shared/corpus.
std::vector<fs::path> Models() {
  std::vector<fs::path> models;
  for (const char* dir : {"/models", "/corpus"}) {
    for (const auto& e :
         fs::directory_iterator(std::string(ARENAPLAN_SHARED_DIR) + dir)) {
      if (e.path().extension() == ".tflite") models.push_back(e.path());
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

TEST(ReportBrowser, ConsoleErrorsAreSeen) {
  // The check below can fail: a page whose script throws logs it.
  testing_util::ScopedTempDir dir("arenaplan_report_");
  const fs::path page = fs::path(dir.path()) / "bad.html";
  testing_util::WriteFile(
      page, "<html><body><script>no_such_function();</script></body></html>");
  EXPECT_EQ(ConsoleLines(Browse(page, "--dump-dom").output).size(), 1u);
}

TEST(ReportBrowser, ShowsEveryModelsOperatorsAndMacs) {
  testing_util::ScopedTempDir dir("arenaplan_report_");
  const std::vector<fs::path> models = Models();
  ASSERT_GE(models.size(), 30u);
  for (const fs::path& model : models) {
    SCOPED_TRACE(model.filename().string());
    const fs::path page =
        fs::path(dir.path()) / (model.stem().string() + ".html");
    const CommandResult made = testing_util::RunArenaplan(
        "report '" + model.string() + "' --assume-dim 1 --out '" +
        page.string() + "'");
    ASSERT_EQ(made.status, 0) << made.output;
    const CommandResult shown = Browse(page, "--dump-dom");
    ASSERT_EQ(shown.status, 0) << shown.output;
    EXPECT_TRUE(ConsoleLines(shown.output).empty())
        << ConsoleLines(shown.output).front();
    const tflite::Model m = tflite::ReadModelFile(model.string());
    const auto& ops = m.subgraphs[0].operators;
    const std::vector<std::string> rows = OperatorRows(shown.output);
    ASSERT_EQ(rows.size(), ops.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::vector<std::string> v = RowValues(rows[i]);
      ASSERT_GE(v.size(), 2u) << rows[i];
      EXPECT_EQ(v[0], std::to_string(i));
      EXPECT_EQ(v[1], std::to_string(ExpectedMacs(m, ops[i])))
          << "operator " << i << " " << ops[i].builtin_name;
      sum += std::stoull(v[1]);
    }
    EXPECT_NE(shown.output.find("id=\"summary-macs\" data-v=\"" +
                                std::to_string(sum) + "\""),
              std::string::npos);
    if (model.stem() == "person_detect") {
      const fs::path png = fs::current_path() / "report_person_detect.png";
      EXPECT_EQ(Browse(page, "--screenshot=" + png.string()).status, 0);
      EXPECT_GT(fs::file_size(png), 10000u);
    }
  }
}

TEST(ReportBrowser, ShowsMarkupInNamesAsText) {
  testing_util::ModelBuilder b;
  const auto x = b.Tensor({1, 8});
  const auto y = b.Tensor({1, 8});
  b.graph().tensors[static_cast<std::size_t>(y)].name =
      "<script>console.error('injected')</script>";
  b.Op(tflite::BuiltinOp::kRelu, {x}, {y});
  const std::vector<std::uint8_t> bytes =
      testing_util::SerializeModel(b.Finish({x}, {y}));
  testing_util::ScopedTempDir dir("arenaplan_report_");
  const fs::path model = fs::path(dir.path()) / "named.tflite";
  testing_util::WriteFile(model, std::string(bytes.begin(), bytes.end()));
  const fs::path page = fs::path(dir.path()) / "named.html";
  ASSERT_EQ(testing_util::RunArenaplan("report '" + model.string() +
                                       "' --out '" + page.string() + "'")
                .status,
            0);
  const CommandResult shown = Browse(page, "--dump-dom");
  ASSERT_EQ(shown.status, 0) << shown.output;
  EXPECT_TRUE(ConsoleLines(shown.output).empty());
  std::size_t scripts = 0;
  for (std::size_t at = shown.output.find("<script"); at != std::string::npos;
       at = shown.output.find("<script", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 1u);  // The page's own.
  EXPECT_NE(shown.output.find("&lt;script&gt;console.error("),
            std::string::npos);
}

}  // namespace
}  // namespace arenaplan
