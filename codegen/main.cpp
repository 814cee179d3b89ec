// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/cli/cli.hpp"

int main(int argc, char** argv) { return arenaplan::RunCli(argc, argv); }
