// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// core's main header: the plan vocabulary and constexpr validator
// (plan.hpp), plan traits and typed tensor handles (tensor.hpp), compile-time
// diagnostics (violation.hpp) and the static arena (arena.hpp). Header-only and
// freestanding.
#ifndef ARENAPLAN_ARENAPLAN_HPP_
#define ARENAPLAN_ARENAPLAN_HPP_

#include "arenaplan/arena.hpp"
#include "arenaplan/plan.hpp"
#include "arenaplan/regions.hpp"
#include "arenaplan/tensor.hpp"
#include "arenaplan/violation.hpp"

#endif  // ARENAPLAN_ARENAPLAN_HPP_
