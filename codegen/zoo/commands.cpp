// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
// PLACEHOLDER: replaced by the owner of codegen/zoo/.
#include "codegen/commands.hpp"

namespace arenaplan {
void RegisterZooCommands(CLI::App&, int*) {}
}  // namespace arenaplan
