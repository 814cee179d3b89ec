// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan zoo` (list the paper's networks) and `arenaplan paper`
// (reproduce Tables 1 and 2 of Pisarchyk & Lee 2019 beside the published
// figures).
#include <cstdio>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/cli/commands.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/strategies/strategy.hpp"
#include "codegen/zoo/networks.hpp"
#include "codegen/zoo/paper_tables.hpp"

namespace arenaplan {
namespace {

/// Bytes per MiB: the paper's "MB" (see paper_tables.hpp).
constexpr double kMiB = 1024.0 * 1024.0;

std::string Mib(double mib) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", mib);
  return buf;
}

/// One cell of our table: the figure in MiB, or why there is none.
struct Cell {
  bool has_value = false;
  double mib = 0;
  std::string text;  ///< "n/a" (not registered) or "invalid" (bug).
};

/// Computes one table's cells: rows x networks.
std::vector<std::vector<Cell>> ComputeTable(
    std::span<const zoo::PaperRow> rows, Approach approach,
    const std::vector<UsageProblem>& problems, bool* any_invalid) {
  std::vector<std::vector<Cell>> cells(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (const UsageProblem& problem : problems) {
      Cell cell;
      const ProfileSummary summary = SummarizeProfiles(problem.records);
      if (rows[r].strategy == "lower-bound") {
        cell.has_value = true;
        cell.mib =
            static_cast<double>(approach == Approach::kOffsets
                                    ? summary.offsets_lower_bound
                                    : summary.shared_objects_lower_bound) /
            kMiB;
      } else if (rows[r].strategy == "naive") {
        cell.has_value = true;
        cell.mib = static_cast<double>(summary.naive_bytes) / kMiB;
      } else if (FindStrategy(approach, rows[r].strategy) == nullptr) {
        cell.text = "n/a";
      } else {
        PlanOptions options;
        options.approach = approach;
        options.strategy = std::string(rows[r].strategy);
        options.alignment = Alignment();  // the paper plans bytes
        try {
          const PlanResult plan = Plan(problem, options);
          cell.has_value = true;
          cell.mib = static_cast<double>(plan.arena_bytes) / kMiB;
        } catch (const InternalError& e) {
          std::cerr << "arenaplan: " << e.what() << '\n';
          cell.text = "invalid";
          *any_invalid = true;
        }
      }
      cells[r].push_back(cell);
    }
  }
  return cells;
}

void PrintTable(const std::string& title, std::span<const zoo::PaperRow> rows,
                const std::vector<std::vector<Cell>>& cells, bool markdown) {
  const std::span<const zoo::ZooNetwork> networks = zoo::Networks();
  auto cell_text = [&](std::size_t r, std::size_t n) {
    const Cell& c = cells[r][n];
    const std::string ours = c.has_value ? Mib(c.mib) : c.text;
    return ours + " (" + Mib(rows[r].mib[n]) + ")";
  };
  std::cout << title << '\n';
  if (markdown) {
    std::cout << "\n| Strategy |";
    for (const zoo::ZooNetwork& n : networks)
      std::cout << ' ' << n.title << " |";
    std::cout << "\n|---|";
    for (std::size_t n = 0; n < networks.size(); ++n) std::cout << "---:|";
    std::cout << '\n';
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::cout << "| " << rows[r].label << " |";
      for (std::size_t n = 0; n < networks.size(); ++n) {
        std::cout << ' ' << cell_text(r, n) << " |";
      }
      std::cout << '\n';
    }
    std::cout << '\n';
    return;
  }
  constexpr int kLabelWidth = 38;
  constexpr int kCellWidth = 18;
  std::printf("%-*s", kLabelWidth, "Strategy");
  for (const zoo::ZooNetwork& n : networks) {
    std::printf("%*s", kCellWidth, std::string(n.title).c_str());
  }
  std::printf("\n");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    // The paper separates our strategies, prior work and baselines.
    if (rows[r].strategy == "lower-bound" ||
        rows[r].strategy == "greedy-in-order") {
      std::printf(
          "%s\n",
          std::string(kLabelWidth + kCellWidth * networks.size(), '-').c_str());
    }
    std::printf("%-*s", kLabelWidth, std::string(rows[r].label).c_str());
    for (std::size_t n = 0; n < networks.size(); ++n) {
      std::printf("%*s", kCellWidth, cell_text(r, n).c_str());
    }
    std::printf("\n");
  }
  std::printf("\n");
  std::fflush(stdout);
}

int RunPaper(bool markdown) {
  std::vector<UsageProblem> problems;
  for (const zoo::ZooNetwork& n : zoo::Networks())
    problems.push_back(n.build());
  bool any_invalid = false;
  const auto table1 = ComputeTable(zoo::kPaperTable1, Approach::kSharedObjects,
                                   problems, &any_invalid);
  const auto table2 = ComputeTable(zoo::kPaperTable2, Approach::kOffsets,
                                   problems, &any_invalid);
  std::cout << "Pisarchyk & Lee 2019, Tables 1 and 2 reproduced on the zoo "
               "networks (arenaplan zoo).\nEach cell: ours (paper), MiB = 2^20 "
               "bytes, fp32, no alignment. n/a: strategy not available.\n\n";
  PrintTable("Table 1. Memory footprint of Shared Objects strategies (MiB)",
             zoo::kPaperTable1, table1, markdown);
  PrintTable("Table 2. Memory footprint of Offset Calculation strategies (MiB)",
             zoo::kPaperTable2, table2, markdown);
  return any_invalid ? kExitInternal : kExitOk;
}

}  // namespace

void RegisterZooCommands(CLI::App& app, int* exit_code) {
  CLI::App* list = app.add_subcommand(
      "zoo", "List the paper's networks (plan them as zoo:NAME)");
  list->callback([] {
    for (const zoo::ZooNetwork& n : zoo::Networks()) {
      std::printf("%-14s %s\n", std::string(n.name).c_str(),
                  std::string(n.description).c_str());
    }
  });

  auto markdown = std::make_shared<bool>(false);
  CLI::App* paper = app.add_subcommand(
      "paper",
      "Reproduce Tables 1 and 2 of Pisarchyk & Lee 2019 beside the paper's "
      "figures");
  paper->add_flag("--markdown", *markdown, "Print Markdown tables");
  paper->callback([exit_code, markdown] { *exit_code = RunPaper(*markdown); });
}

}  // namespace arenaplan
