// expect: this tensor is not in the plan
#include "tiny_plan.hpp"

// The plan has 4 tensors (indices 0..3).
inline constexpr arenaplan::TensorId<tiny::Plan, 4> kMissing{};
float* Missing() { return tiny::Arena::Get<float>(kMissing).data; }
