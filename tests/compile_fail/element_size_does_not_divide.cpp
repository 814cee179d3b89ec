// expect: the element type's size does not divide the tensor's size
#include "tiny_plan.hpp"

// kInput has 60 exact bytes: not a whole number of 8-byte doubles.
double* Input() { return tiny::Arena::Get<double>(tiny::kInput).data; }
