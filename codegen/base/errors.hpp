// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#ifndef ARENAPLAN_CODEGEN_BASE_ERRORS_HPP_
#define ARENAPLAN_CODEGEN_BASE_ERRORS_HPP_

#include <stdexcept>
#include <string>

namespace arenaplan {

/// Exit statuses of the `arenaplan` command, one for each error class below.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;    ///< InternalError: a bug.
inline constexpr int kExitBadInput = 2;    ///< InputError: bad input or usage.
inline constexpr int kExitInfeasible = 3;  ///< InfeasibleError.

/// Bad input or usage: the CLI prints what() as one line on stderr and exits
/// with status 2. The message names the file and the place, e.g.
/// "model.csv:7: size is not a number: 'x'" or
/// "person_detect.tflite: tensor 12: dynamic dimension".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A bug in arenaplan (e.g. a strategy produced a plan the validator
/// rejects): the CLI prints what() and exits with status 1.
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// No plan fits the requested --capacity (proven, or none found in time):
/// the CLI prints what() and exits with status 3.
class InfeasibleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_BASE_ERRORS_HPP_
