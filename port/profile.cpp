// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The profile hook of core/include/arenaplan/profile.hpp on the port's
// counter. Mark() takes the same path on every call, so its cost is a
// constant the caller measures (run/firmware.cpp).
#include "arenaplan/profile.hpp"

#include <cstdint>

#include "port/port.hpp"

namespace arenaplan::profile {
namespace {

std::uint32_t* stamps_at = nullptr;
std::uint32_t stamps_capacity = 0;

}  // namespace

void Record(std::uint32_t* stamps, std::uint32_t capacity) {
  stamps_at = stamps;
  stamps_capacity = stamps == nullptr ? 0 : capacity;
}

void Mark(std::uint32_t step) {
  if (step < stamps_capacity) stamps_at[step] = port::CycleCount();
}

}  // namespace arenaplan::profile
