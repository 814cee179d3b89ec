// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The per-operator profile's hook (`make run ... PROFILE=1`). Code that
// `arenaplan compile` generates calls Mark(s) as step s of Invoke() starts
// (an operator, or a fused segment) and Mark(kProfileStepCount) after the
// last, but only when ARENAPLAN_PROFILE is defined; without it no call is
// compiled. The port defines both functions (port/profile.cpp) on the
// counter it measures inferences with (port::CycleCount): a step's count is
// the difference of two consecutive marks less one mark's own cost, which
// the caller measures by marking back to back. Freestanding.
#ifndef ARENAPLAN_PROFILE_HPP_
#define ARENAPLAN_PROFILE_HPP_

#include <cstdint>

namespace arenaplan::profile {

/// Makes Mark(s) store the counter in stamps[s] for s < `capacity` (and
/// nothing for larger s). `stamps` is borrowed until the next call;
/// nullptr with capacity 0 stops the recording.
void Record(std::uint32_t* stamps, std::uint32_t capacity);

/// Stores the counter's current value (port::CycleCount: counter ticks,
/// wrapping) for step `step` in the buffer Record() gave.
void Mark(std::uint32_t step);

}  // namespace arenaplan::profile

#endif  // ARENAPLAN_PROFILE_HPP_
