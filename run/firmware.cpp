// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `make run` firmware: one inference of the model `arenaplan compile`
// generated (namespace model, run/run.sh), every activation in the
// planned static arena (.arena), constants in flash. The input tensor's
// bytes are embedded by input.S. It prints, through semihosting, the line
//   output <2 lowercase hex digits per output byte, in memory order>
// and then the line
//   figures arena=<bytes> <counter>=<count> calibration=<count> wrapped=<0|1>
// (<counter>: dwt_cycles or systick_ticks, see port::CycleCount; wrapped=1:
// the inference took more than SysTick's 2^24 ticks, so <count> is wrong
// and run/run.sh refuses to turn it into instructions), then
//   stack peak=<bytes> total=<bytes> bound=<bytes> reserved=<bytes>
//   floor=<bytes>
// (one line) and exits 0; peak: the stack Invoke() used, from the stack
// pointer at its call down to the lowest word written (the free stack is
// painted before, port::PaintStack, and read after, port::StackLowWater,
// both outside the counted interval); floor: what the same sequence
// without the call measures (the counter reads after the call write their
// frames below the stack pointer too), so a peak at or below it says only
// that Invoke() used at most that many bytes (MeasureFloor); total: the
// same lowest word from the stack's top;
// bound: kStackBytes of model_stack.hpp (`arenaplan stack`, docs/stack.md);
// reserved: the stack the link reserved. It exits 2 when the embedded
// input is not kInputTotalBytes long (the inputs concatenated). `calibration` is the same counter over a loop of
// exactly 2 * kCalibrationIterations + 1 instructions, so that under QEMU's
// -icount the count per instruction is measured, not assumed.
//
// Built with ARENAPLAN_PROFILE (`make run ... PROFILE=1`), the generated
// Invoke() marks every step (core/include/arenaplan/profile.hpp) and the
// firmware prints, before the output line,
//   profile hook_ticks=<count> hook_marks=<marks>
//   profile step=<s> ticks=<count> first=<operator> last=<operator>
//     constant=<bytes> live=<bytes> name=<builtin names>   (one line each)
// hook_ticks: the counter over hook_marks intervals between marks made
// back to back, i.e. the cost of that many marks; ticks: the counter from
// step s's mark to the next one (the step and one mark); run/run.sh turns
// them into instructions (run/profile_table.pl).
#include <cstddef>
#include <cstdint>

#include "model_model.hpp"
#include "model_stack.hpp"
#include "port/port.hpp"
#ifdef ARENAPLAN_PROFILE
#include "arenaplan/profile.hpp"
#endif

extern "C" const std::uint8_t run_input[];
extern "C" const std::uint8_t run_input_end[];

namespace {

namespace port = arenaplan::port;

/// Iterations of the calibration loop: 2 instructions each (SUBS, BNE),
/// plus the MOV that loads the count.
constexpr std::uint32_t kCalibrationIterations = 1000000;

/// Runs 2 * kCalibrationIterations + 1 instructions; returns the counter
/// ticks they took.
std::uint32_t CalibrationTicks() {
  const std::uint32_t start = port::CycleCount();
  std::uint32_t n = kCalibrationIterations;
  // Unified syntax, which Thumb-1 inline assembly does not default to
  // (the compiler switches back after the statement).
  asm volatile(
      ".syntax unified\n"
      "1:\n\t"
      "subs %0, %0, #1\n\t"
      "bne 1b"
      : "+l"(n)
      :
      : "cc");
  return port::CycleDelta(start, port::CycleCount());
}

#ifdef ARENAPLAN_PLAN_HAS_REGIONS
// A plan across memory regions (docs/regions.md): every tensor lies in its
// region's array; Invoke() does not use its argument.
std::int8_t* ArenaArgument() { return nullptr; }
std::int8_t* TensorAddress(std::int8_t* /*arena*/, std::size_t index) {
  return reinterpret_cast<std::int8_t*>(model::Arena::Address(index));
}
std::size_t ArenaBytes() {
  std::size_t total = 0;
  for (std::size_t bytes : model::kRegionSizes) total += bytes;
  return total;
}
#else
std::int8_t* ArenaArgument() {
  return reinterpret_cast<std::int8_t*>(model::Arena::Data());
}
std::int8_t* TensorAddress(std::int8_t* arena, std::size_t index) {
  return arena + model::kPlan[index].offset;
}
std::size_t ArenaBytes() { return model::kArenaSize; }
#endif

/// The measure's floor: the bytes below the stack pointer that the
/// measurement's own calls overwrite, by the measurement's sequence without
/// Invoke(). Inlined, so that it runs at main()'s stack pointer as the
/// measurement does; the counter is started before (its first read starts
/// it, a deeper call), so both sequences make the same calls.
[[gnu::always_inline]] inline std::uint32_t MeasureFloor() {
  port::PaintStack();
  const std::uint32_t sp = port::StackPointer();
  const std::uint32_t start = port::CycleCount();
  const std::uint32_t ticks = port::CycleDelta(start, port::CycleCount());
  const std::uint32_t low_water = port::StackLowWater();
  asm volatile("" : : "r"(ticks));  // the reads are made, as in main()
  return sp > low_water ? sp - low_water : 0;
}

/// Not inlined: its 129-byte buffer is then on the stack only while it
/// prints, not under main()'s frame during the inference.
[[gnu::noinline]] void WriteHexBytes(const std::uint8_t* bytes,
                                     std::size_t count) {
  constexpr char kDigits[] = "0123456789abcdef";
  char chunk[129];  // 64 bytes as hex, and the NUL
  std::size_t k = 0;
  for (std::size_t i = 0; i < count; ++i) {
    chunk[k++] = kDigits[bytes[i] >> 4];
    chunk[k++] = kDigits[bytes[i] & 0xF];
    if (k == sizeof chunk - 1 || i + 1 == count) {
      chunk[k] = '\0';
      port::Write(chunk);
      k = 0;
    }
  }
}

#ifdef ARENAPLAN_PROFILE
namespace profile = arenaplan::profile;

/// Marks of one calibration run, made back to back as Invoke() makes its
/// own (a constant argument, then the call).
constexpr std::uint32_t kHookRunMarks = 32;
/// Calibration runs: (kHookRunMarks - 1) x kHookRuns intervals measured.
constexpr std::uint32_t kHookRuns = 32;

/// The counter over (kHookRunMarks - 1) x kHookRuns intervals between
/// marks made back to back: the cost of that many marks.
std::uint32_t HookTicks() {
  std::uint32_t stamps[kHookRunMarks];
  std::uint32_t total = 0;
  profile::Record(stamps, kHookRunMarks);
  for (std::uint32_t run = 0; run < kHookRuns; ++run) {
#define RUN_MARK4(s)    \
  profile::Mark(s);     \
  profile::Mark(s + 1); \
  profile::Mark(s + 2); \
  profile::Mark(s + 3);
    RUN_MARK4(0)
    RUN_MARK4(4) RUN_MARK4(8) RUN_MARK4(12) RUN_MARK4(16) RUN_MARK4(20)
        RUN_MARK4(24) RUN_MARK4(28)
#undef RUN_MARK4
            total += port::CycleDelta(stamps[0], stamps[kHookRunMarks - 1]);
  }
  profile::Record(nullptr, 0);
  return total;
}

std::uint32_t step_stamps[model::kProfileStepCount + 1];

/// Prints the profile lines of the inference whose marks are in
/// step_stamps, and the calibration's.
void WriteProfile(std::uint32_t hook_ticks) {
  port::Write("profile hook_ticks=");
  port::WriteUnsigned(hook_ticks);
  port::Write(" hook_marks=");
  port::WriteUnsigned((kHookRunMarks - 1) * kHookRuns);
  port::Write("\n");
  for (std::size_t s = 0; s < model::kProfileStepCount; ++s) {
    const model::ProfileStep& step = model::kProfileSteps[s];
    port::Write("profile step=");
    port::WriteUnsigned(static_cast<std::uint32_t>(s));
    port::Write(" ticks=");
    port::WriteUnsigned(port::CycleDelta(step_stamps[s], step_stamps[s + 1]));
    port::Write(" first=");
    port::WriteUnsigned(step.first_operator);
    port::Write(" last=");
    port::WriteUnsigned(step.last_operator);
    port::Write(" constant=");
    port::WriteUnsigned(static_cast<std::uint32_t>(step.constant_bytes));
    port::Write(" live=");
    port::WriteUnsigned(static_cast<std::uint32_t>(step.live_bytes));
    port::Write(" name=");
    port::Write(step.operators);
    port::Write("\n");
  }
}
#endif

}  // namespace

int main() {
  const auto input_bytes = static_cast<std::size_t>(run_input_end - run_input);
  if (input_bytes != model::kInputTotalBytes) {
    port::Write("run: the embedded input has ");
    port::WriteUnsigned(static_cast<std::uint32_t>(input_bytes));
    port::Write(" bytes, the input tensor ");
    port::WriteUnsigned(static_cast<std::uint32_t>(model::kInputTotalBytes));
    port::Write("\n");
    return 2;
  }
  std::int8_t* const arena = ArenaArgument();
  // Several inputs: the embedded bytes are theirs concatenated in order.
  std::size_t at = 0;
  for (std::size_t k = 0; k < model::kInputCount; ++k) {
    auto* input = reinterpret_cast<std::uint8_t*>(
        TensorAddress(arena, model::kInputIndices[k]));
    for (std::size_t i = 0; i < model::kInputSizes[k]; ++i) {
      input[i] = run_input[at + i];
    }
    at += model::kInputSizes[k];
  }
#ifdef ARENAPLAN_PROFILE
  const std::uint32_t hook_ticks = HookTicks();
  profile::Record(step_stamps, model::kProfileStepCount + 1);
#endif
  (void)port::CycleCount();  // started, before both sequences below
  const std::uint32_t floor = MeasureFloor();
  port::CycleRestart();  // the inference wraps the counter only past 2^24
  port::PaintStack();
  const std::uint32_t sp_at_call = port::StackPointer();
  const std::uint32_t start = port::CycleCount();
  model::Invoke(arena);
  const std::uint32_t ticks = port::CycleDelta(start, port::CycleCount());
  const std::uint32_t low_water = port::StackLowWater();
  const bool wrapped = port::CycleWrapped();
  const std::uint32_t calibration = CalibrationTicks();
#ifdef ARENAPLAN_PROFILE
  WriteProfile(hook_ticks);
#endif
  port::Write("output ");
  for (std::size_t k = 0; k < model::kOutputCount; ++k) {
    WriteHexBytes(reinterpret_cast<const std::uint8_t*>(
                      TensorAddress(arena, model::kOutputIndices[k])),
                  model::kOutputSizes[k]);
  }
  port::Write("\nfigures arena=");
  port::WriteUnsigned(static_cast<std::uint32_t>(ArenaBytes()));
  port::Write(port::HasCycleCounter() ? " dwt_cycles=" : " systick_ticks=");
  port::WriteUnsigned(ticks);
  port::Write(" calibration=");
  port::WriteUnsigned(calibration);
  port::Write(wrapped ? " wrapped=1" : " wrapped=0");
  port::Write("\nstack peak=");
  port::WriteUnsigned(sp_at_call > low_water ? sp_at_call - low_water : 0);
  port::Write(" total=");
  port::WriteUnsigned(port::StackTop() - low_water);
  port::Write(" bound=");
  port::WriteUnsigned(static_cast<std::uint32_t>(model::kStackBytes));
  port::Write(" reserved=");
  port::WriteUnsigned(port::StackTop() - port::StackLimit());
  port::Write(" floor=");
  port::WriteUnsigned(floor);
  port::Write("\n");
  return 0;
}
