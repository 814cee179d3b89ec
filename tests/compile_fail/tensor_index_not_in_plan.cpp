// expect: this tensor is not in the plan
#include "tiny_plan.hpp"

float* Missing() { return tiny::Arena::Get<float, 7>().data; }
