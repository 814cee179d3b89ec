// expect: (compiles)
#include <cstdint>

#include "tiny_plan.hpp"

// 60 exact bytes hold 15 floats; 32 bytes hold 32 int8 or 8 int32.
static_assert(decltype(tiny::Arena::Get<float>(tiny::kInput))::kCount == 15);
static_assert(
    decltype(tiny::Arena::Get<std::int8_t>(tiny::kConv1Relu))::kCount == 32);
static_assert(
    decltype(tiny::Arena::Get<std::int32_t, tiny::kConv1Relu>())::kCount == 8);
static_assert(decltype(tiny::Arena::Get<float>(tiny::kEmpty))::kCount == 0);
float* Input() { return tiny::Arena::Get<float>(tiny::kInput).data; }
