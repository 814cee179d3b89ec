// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' property test's case families (tests/target/kernels_property.cpp
// runs them in this order; each is defined in the .cpp of its family here).
#ifndef ARENAPLAN_TESTS_TARGET_KERNELS_PROPERTY_CASES_HPP_
#define ARENAPLAN_TESTS_TARGET_KERNELS_PROPERTY_CASES_HPP_

#include <cstdint>

namespace arenaplan::kernels_property {

void TestConv(std::int32_t cases);
void TestPointwise(std::int32_t cases);
void TestDepthwise(std::int32_t cases);
void TestDilated(std::int32_t cases, bool depthwise);
void TestFullyConnected(std::int32_t cases);
void TestTransposeConv(std::int32_t cases);
void TestNegativeScales(std::int32_t cases);
void TestPool(std::int32_t cases);
void TestBatchMatMul(std::int32_t cases);
void TestAdd(std::int32_t cases);
void TestSub(std::int32_t cases);
void TestMul(std::int32_t cases);
void TestDiv(std::int32_t cases);
void TestMaximumMinimum(std::int32_t cases);
void TestSoftmax(std::int32_t cases);
void TestSigmoidLike(std::int32_t cases);
void TestRelu(std::int32_t cases);
void TestLeakyRelu(std::int32_t cases);
void TestHardSwish(std::int32_t cases);
void TestQuantize(std::int32_t cases);
void TestFloatQuantize(std::int32_t cases);
void TestCast(std::int32_t cases);
void TestMean(std::int32_t cases);
void TestSvdf(std::int32_t cases);
void TestLstm(std::int32_t cases);
void TestPad(std::int32_t cases);
void TestStridedSlice(std::int32_t cases);
void TestConcatSplit(std::int32_t cases);
void TestGather(std::int32_t cases);
void TestResize(std::int32_t cases);
void TestTranspose(std::int32_t cases);
void TestTile(std::int32_t cases);
void TestCopies(std::int32_t cases);
void TestDispatched(std::int32_t cases);
void TestInt16(std::int32_t cases);

}  // namespace arenaplan::kernels_property

#endif  // ARENAPLAN_TESTS_TARGET_KERNELS_PROPERTY_CASES_HPP_
