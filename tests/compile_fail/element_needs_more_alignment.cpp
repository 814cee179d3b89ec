// expect: the element type needs more alignment than the plan gives
#include "tiny_plan.hpp"

// The plan guarantees 16-byte alignment; this type asks for 32.
struct alignas(32) Wide {
  unsigned char bytes[32];
};
Wide* Output() { return tiny::Arena::Get<Wide>(tiny::kOutput).data; }
