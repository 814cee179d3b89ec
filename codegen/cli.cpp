// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/cli.hpp"

namespace arenaplan {
int RunCli(int, char**) { return kExitInternal; }
}  // namespace arenaplan
