// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#ifndef ARENAPLAN_CODEGEN_ATOMIC_FILE_HPP_
#define ARENAPLAN_CODEGEN_ATOMIC_FILE_HPP_

#include <string>
#include <utility>
#include <vector>

namespace arenaplan {

/// Writes every (path, contents) pair so that each path either keeps its old
/// contents or holds the complete new ones: all contents go to temporary
/// files beside their targets first, and only when every one of them is
/// written are they renamed into place. On failure, temporaries are removed
/// and InputError names the path.
void WriteFilesAtomically(
    const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_ATOMIC_FILE_HPP_
