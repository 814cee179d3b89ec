// expect: this tensor belongs to another plan
#include "other_plan.hpp"
#include "tiny_plan.hpp"

// other::kInput is index 0 of a different model: not a tensor of tiny.
float* Wrong() { return tiny::Arena::Get<float>(other::kInput).data; }
