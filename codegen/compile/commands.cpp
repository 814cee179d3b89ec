// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
// PLACEHOLDER: replaced by the owner of codegen/compile/.
#include "codegen/commands.hpp"

namespace arenaplan {
void RegisterCompileCommand(CLI::App&, int*) {}
}  // namespace arenaplan
