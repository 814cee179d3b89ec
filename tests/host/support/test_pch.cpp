// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The one source of the arenaplan_test_pch target (CMakeLists.txt): CMake
// builds the tests' shared precompiled header beside it.
