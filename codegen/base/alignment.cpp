// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/base/alignment.hpp"

#include <string>

#include "codegen/base/errors.hpp"

namespace arenaplan {

Alignment Alignment::FromBytes(std::uint64_t bytes) {
  if (bytes == 0 || (bytes & (bytes - 1)) != 0) {
    throw InputError("--align " + std::to_string(bytes) +
                     ": must be a power of two");
  }
  return Alignment(bytes);
}

}  // namespace arenaplan
