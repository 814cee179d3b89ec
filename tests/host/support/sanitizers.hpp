// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Whether this test binary runs under AddressSanitizer, for the tests that
// run fewer random cases there. GCC defines __SANITIZE_ADDRESS__; clang
// (which `make test-asan` uses) has __has_feature(address_sanitizer)
// instead. The one place that asks: a test tests ARENAPLAN_TEST_ASAN.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_SANITIZERS_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_SANITIZERS_HPP_

#if defined(__SANITIZE_ADDRESS__)
#define ARENAPLAN_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENAPLAN_TEST_ASAN 1
#endif
#endif
#ifndef ARENAPLAN_TEST_ASAN
#define ARENAPLAN_TEST_ASAN 0
#endif

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_SANITIZERS_HPP_
