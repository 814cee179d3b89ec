// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/arena.hpp"

#include <algorithm>
#include <utility>

#include "codegen/base/errors.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::tflm {

using tflite::Model;
using tflite::Subgraph;
using tflite::Tensor;

namespace {

// sizeof / alignof of TFLM's structs in an LP64 host build (x86-64, g++ 12,
// -DTF_LITE_STATIC_MEMORY), kTflmVersion. Files under tensorflow/lite/.
constexpr std::uint64_t kSingleArenaBufferAllocator =
    72;  // micro/arena_allocator/single_arena_buffer_allocator.h
constexpr std::uint64_t kGreedyMemoryPlanner =
    72;  // micro/memory_planner/greedy_memory_planner.h
constexpr std::uint64_t kMicroAllocator = 72;  // micro/micro_allocator.h
constexpr std::uint64_t kMicroBuiltinDataAllocator =
    16;                                              // micro/micro_allocator.cc
constexpr std::uint64_t kSubgraphAllocations = 16;   // micro/micro_allocator.h
constexpr std::uint64_t kNodeAndRegistration = 64;   // micro/micro_allocator.h
constexpr std::uint64_t kScratchBufferRequest = 16;  // micro/micro_allocator.h
constexpr std::uint64_t kScratchBufferHandle = 8;    // micro/micro_allocator.h
constexpr std::uint64_t kTfLiteEvalTensor = 24;      // core/c/common.h
constexpr std::uint64_t kTfLiteTensor =
    64;  // core/c/common.h (TF_LITE_STATIC_MEMORY)
constexpr std::uint64_t kTfLiteAffineQuantization = 24;  // core/c/common.h
constexpr std::uint64_t kAllocationInfo = 32;  // micro/micro_allocation_info.h
constexpr std::uint64_t kPointer = 8;
/// GreedyMemoryPlanner::per_buffer_size(): BufferRequirements (16), two
/// ints, ListEntry (12), one int.
constexpr std::uint64_t kPlannerBytesPerBuffer = 40;
/// kMaxScratchBuffersPerOp in micro/micro_allocator.cc.
constexpr std::uint64_t kMaxScratchBuffersPerOp = 12;
/// MicroArenaBufferAlignment() (micro/micro_arena_constants.h).
constexpr std::uint64_t kArenaAlignment = 16;

std::uint64_t RoundUp(std::uint64_t v, std::uint64_t a) {
  return (v + a - 1) / a * a;
}

/// SingleArenaBufferAllocator with the arena's start and end 16-aligned:
/// head, temp and tail as byte counts from the start (head, temp) and from
/// the end (tail). Records the largest head-or-temp plus tail.
class ArenaReplay {
 public:
  explicit ArenaReplay(std::string source) : source_(std::move(source)) {}
  /// AllocatePersistentBuffer: aligned down from the tail.
  void Persistent(std::uint64_t bytes, std::uint64_t align,
                  const std::string& step) {
    Limit(bytes, step);
    tail_ = RoundUp(tail_ + bytes, align);
    Check(step);
  }
  /// AllocateTemp: aligned up after the temporaries (never released until
  /// ResetTemp, as TFLM keeps `temp_` until ResetTempAllocations).
  void Temp(std::uint64_t bytes, std::uint64_t align, const std::string& step) {
    Limit(bytes, step);
    temp_ = RoundUp(temp_, align) + bytes;
    Check(step);
  }
  /// ResizeBuffer / ReserveNonPersistentOverlayMemory of the head.
  void Head(std::uint64_t bytes, const std::string& step) {
    Limit(bytes, step);
    head_ = bytes;
    temp_ = bytes;
    Check(step);
  }
  void ResetTemp() { temp_ = head_; }
  /// A need that is not a single allocation (the planner's scratch area).
  void Need(std::uint64_t bytes, const std::string& step) {
    if (bytes > peak_) {
      peak_ = bytes;
      step_ = step;
    }
  }
  std::uint64_t temp() const { return temp_; }
  std::uint64_t tail() const { return tail_; }
  std::uint64_t peak() const { return peak_; }
  const std::string& step() const { return step_; }

 private:
  /// Model sizes come from the file: absurd ones are refused before any
  /// sum could wrap (each figure stays below 2^49).
  void Limit(std::uint64_t bytes, const std::string& step) const {
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 48;
    if (bytes > kLimit || head_ > kLimit || temp_ > kLimit || tail_ > kLimit) {
      throw InputError(source_ + ": " + step +
                       ": TFLM's arena would exceed 2^48 bytes");
    }
  }
  void Check(const std::string& step) {
    Need(std::max(head_, temp_) + tail_, step);
  }
  std::string source_;
  std::uint64_t head_ = 0, temp_ = 0, tail_ = 0, peak_ = 0;
  std::string step_;
};

bool Quantized(const Tensor& t) {
  return !t.quantization.scale.empty() && !t.quantization.zero_point.empty();
}

/// The TfLiteTensor TFLM builds for `t` (micro_allocator.cc,
/// InitializeTfLiteTensorFromFlatbuffer): the struct, and for quantized
/// tensors a TfLiteAffineQuantization and a zero-point TfLiteIntArray
/// (4 + 4 x channels bytes).
template <typename Alloc>
void TensorStruct(const Tensor& t, Alloc alloc) {
  alloc(kTfLiteTensor, 8);
  if (Quantized(t)) {
    alloc(kTfLiteAffineQuantization, 8);
    alloc(4 + 4 * t.quantization.scale.size(), 4);
  }
}

/// MicroInterpreter's constructor and AllocateTensors' StartModelAllocation.
void StartModelAllocation(ArenaReplay& a, const Model& model, bool greedy) {
  // MicroInterpreter's constructor: MicroAllocator::Create
  // (micro_allocator.cc) places the buffer allocator, the planner (unless
  // the firmware passes its own, as with the shim) and the allocator.
  const std::string ctor = "MicroInterpreter constructor";
  a.Persistent(kSingleArenaBufferAllocator, 8, ctor);
  if (greedy) a.Persistent(kGreedyMemoryPlanner, 8, ctor);
  a.Persistent(kMicroAllocator, 8, ctor);

  // AllocateTensors: StartModelAllocation.
  const std::string start = "AllocateTensors: StartModelAllocation";
  a.Persistent(kMicroBuiltinDataAllocator, 8, start);
  a.Head(kScratchBufferRequest * kMaxScratchBuffersPerOp, start);
  a.Persistent(kSubgraphAllocations * model.subgraphs.size(), 8, start);
  for (const Subgraph& g : model.subgraphs) {
    a.Persistent(kTfLiteEvalTensor * g.tensors.size(), 8, start);
  }
  for (const Subgraph& g : model.subgraphs) {
    a.Persistent(kNodeAndRegistration * g.operators.size(), 8, start);
  }
}

/// Kernel facts of every operator, subgraph by subgraph; each note once in
/// `notes` with the operators it concerns ("K", or "S:K" past subgraph 0).
std::vector<std::vector<KernelFacts>> GatherFacts(
    const Model& model, const InputOptions& options,
    std::vector<std::pair<std::string, std::vector<std::string>>>& notes) {
  std::vector<std::vector<KernelFacts>> facts(model.subgraphs.size());
  for (std::size_t s = 0; s < facts.size(); ++s) {
    for (std::size_t k = 0; k < model.subgraphs[s].operators.size(); ++k) {
      facts[s].push_back(TflmKernelFacts(model, s, k, options));
      const std::string& note = facts[s].back().note;
      if (note.empty()) continue;
      const std::string op =
          (s ? std::to_string(s) + ":" : std::string()) + std::to_string(k);
      auto it = std::find_if(notes.begin(), notes.end(),
                             [&](const auto& n) { return n.first == note; });
      if (it == notes.end()) {
        notes.push_back({note, {op}});
      } else {
        it->second.push_back(op);
      }
    }
  }
  return facts;
}

/// PrepareNodeAndRegistrationDataFromFlatbuffer (micro_interpreter.cc):
/// each operator's builtin parameters; then InitSubgraphs: each kernel's
/// Init (OpData through AllocatePersistentBuffer, 16-aligned).
void InitKernels(ArenaReplay& a,
                 const std::vector<std::vector<KernelFacts>>& facts) {
  const std::string parse = "AllocateTensors: operator parameters";
  for (const auto& fs : facts) {
    for (const KernelFacts& f : fs) {
      if (f.params_bytes != 0)
        a.Persistent(f.params_bytes, f.params_align, parse);
    }
  }
  const std::string init = "AllocateTensors: kernel Init";
  for (const auto& fs : facts) {
    for (const KernelFacts& f : fs) {
      if (f.op_data_bytes != 0)
        a.Persistent(f.op_data_bytes, kArenaAlignment, init);
    }
  }
}

/// PrepareSubgraphs: each kernel's Prepare. Temporaries pile up until the
/// operator is done (FinishPrepareNodeAllocations resets them and regrows
/// the scratch request list to requests so far + 12).
void PrepareKernels(ArenaReplay& a, const Model& model,
                    const std::vector<std::vector<KernelFacts>>& facts,
                    std::span<const ScratchRequest> scratch) {
  std::uint64_t requests = 0;
  for (std::size_t s = 0; s < facts.size(); ++s) {
    const Subgraph& g = model.subgraphs[s];
    for (std::size_t k = 0; k < g.operators.size(); ++k) {
      const std::string step = "AllocateTensors: Prepare of operator " +
                               std::to_string(k) + " " +
                               g.operators[k].builtin_name +
                               (s ? " of subgraph " + std::to_string(s) : "");
      for (const PrepareStep& p : facts[s][k].prepare) {
        switch (p.kind) {
          case PrepareStep::Kind::kTempTensor:
            if (p.tensor >= 0 &&
                static_cast<std::size_t>(p.tensor) < g.tensors.size()) {
              TensorStruct(g.tensors[static_cast<std::size_t>(p.tensor)],
                           [&](std::uint64_t b, std::uint64_t al) {
                             a.Temp(b, al, step);
                           });
            }
            break;
          case PrepareStep::Kind::kPersistent:
            a.Persistent(p.bytes, kArenaAlignment, step);
            break;
          case PrepareStep::Kind::kScratch:
            // Counted from `scratch` below (the user may override it).
            break;
        }
      }
      a.ResetTemp();
      if (s == 0) {
        for (const ScratchRequest& r : scratch) requests += r.op == k ? 1 : 0;
      }
      a.Head(kScratchBufferRequest * (requests + kMaxScratchBuffersPerOp),
             step);
    }
  }
}

/// FinishModelAllocation: scratch handles, then CommitStaticMemoryPlan
/// (micro_allocator.cc, micro_allocation_info.cc): temporaries for the
/// allocation info, variable tensors in the tail, and all remaining memory
/// handed to the planner, which needs 40 bytes per buffer. The head then
/// becomes the planned section of `non_persistent` bytes.
void PlanMemory(ArenaReplay& a, const Model& model, const InputOptions& options,
                std::span<const ScratchRequest> scratch, bool greedy,
                std::uint64_t non_persistent) {
  const std::string plan = "AllocateTensors: memory planning";
  if (!scratch.empty()) {
    a.Persistent(kScratchBufferHandle * scratch.size(), 8, plan);
  }
  std::size_t tensors = 0;
  for (const Subgraph& g : model.subgraphs) tensors += g.tensors.size();
  a.Temp(8 * model.subgraphs.size(), 8, plan);
  a.Temp(kAllocationInfo * (tensors + scratch.size()), 8, plan);
  std::uint64_t buffers = scratch.size();
  for (std::size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& g = model.subgraphs[s];
    for (std::size_t i = 0; i < g.tensors.size(); ++i) {
      const Tensor& t = g.tensors[i];
      if (model.IsConstant(t)) continue;
      const std::uint64_t bytes =
          tflite::TensorBytes(t, options,
                              model.source + ": subgraph " + std::to_string(s) +
                                  ": tensor " + std::to_string(i));
      if (t.is_variable) {
        a.Persistent(bytes, kArenaAlignment, plan);
      } else if (bytes != 0) {
        ++buffers;
      }
    }
  }
  if (greedy) {
    a.Need(RoundUp(a.temp(), kArenaAlignment) +
               kPlannerBytesPerBuffer * buffers +
               RoundUp(a.tail(), kArenaAlignment),
           plan);
  }
  // With the shim TFLM reserves 0 bytes, but the plan's buffers still
  // occupy `non_persistent` bytes.
  a.Head(non_persistent, plan);
}

/// AllocateTensors, last: the input and output TfLiteTensor pointer arrays
/// and structs (micro_interpreter.cc), in the tail.
void AllocateIoTensors(ArenaReplay& a, const Model& model) {
  const std::string io = "AllocateTensors: input and output tensors";
  const Subgraph& g0 = model.subgraphs[0];
  for (const std::vector<std::int32_t>* list : {&g0.inputs, &g0.outputs}) {
    a.Persistent(kPointer * list->size(), kArenaAlignment, io);
    for (std::int32_t t : *list) {
      if (t < 0 || static_cast<std::size_t>(t) >= g0.tensors.size()) continue;
      TensorStruct(
          g0.tensors[static_cast<std::size_t>(t)],
          [&](std::uint64_t b, std::uint64_t al) { a.Persistent(b, al, io); });
    }
  }
}

}  // namespace

TflmArena ModelTflmArena(const Model& model, const InputOptions& options,
                         std::uint64_t non_persistent,
                         std::span<const ScratchRequest> scratch,
                         TflmPlannerKind planner) {
  TflmArena out;
  out.non_persistent = non_persistent;
  ArenaReplay a(model.source);
  const bool greedy = planner == TflmPlannerKind::kGreedy;
  StartModelAllocation(a, model, greedy);
  const std::vector<std::vector<KernelFacts>> facts =
      GatherFacts(model, options, out.notes);
  InitKernels(a, facts);
  PrepareKernels(a, model, facts, scratch);
  PlanMemory(a, model, options, scratch, greedy, non_persistent);
  AllocateIoTensors(a, model);
  // Invoke allocates nothing from the arena.
  out.persistent = a.tail();
  out.arena = RoundUp(a.peak(), kArenaAlignment);
  out.binding_step = a.step();
  return out;
}

}  // namespace arenaplan::tflm
