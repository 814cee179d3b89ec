// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LoadZooProblem: "zoo:NAME" inputs.
#include "codegen/zoo/load.hpp"

#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/zoo/networks.hpp"

namespace arenaplan {

UsageProblem LoadZooProblem(const std::string& name,
                            const InputOptions& options) {
  const zoo::ZooNetwork* network = zoo::FindNetwork(name);
  if (network == nullptr) {
    std::string known;
    for (const zoo::ZooNetwork& n : zoo::Networks()) {
      known += known.empty() ? "" : ", ";
      known += n.name;
    }
    throw InputError("zoo:" + name + ": unknown network (known: " + known +
                     ")");
  }
  // The zoo is fp32 already and has no dynamic dimensions: --fp32 and
  // --assume-dim would change nothing, so they are refused, not ignored.
  if (options.fp32 || options.assume_dim) {
    throw InputError("zoo:" + name +
                     ": --fp32 and --assume-dim apply to .tflite models; the "
                     "zoo networks are fp32 with fixed shapes");
  }
  UsageProblem problem = network->build();
  // --scratch OP:BYTES: a buffer alive during that one operator.
  for (const auto& [op, bytes] : options.scratch) {
    if (op >= problem.operator_count) {
      throw InputError("zoo:" + name + ": --scratch " + std::to_string(op) +
                       ":" + std::to_string(bytes) +
                       ": operator out of range "
                       "(the network has " +
                       std::to_string(problem.operator_count) + " operators)");
    }
    problem.records.push_back({op, op, bytes});
    problem.ids.push_back("scratch@" + std::to_string(op));
    problem.names.push_back("scratch of operator " + std::to_string(op));
  }
  return problem;
}

}  // namespace arenaplan
