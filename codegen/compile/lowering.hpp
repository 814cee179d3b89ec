// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The core every operator lowering uses (codegen/compile/lower_*.cpp):
// operand checks that name the operator, the constant pool (weights, biases,
// requantization parameters and tables emitted once each as const arrays),
// the persistent-state buffers, and the text of Invoke()'s body. A lowering
// reads one operator, checks what the kernel supports, and appends one
// kernel call; the table in lowering_table.cpp maps each TFLite builtin
// operator code to its lowering.
#ifndef ARENAPLAN_CODEGEN_COMPILE_LOWERING_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_LOWERING_HPP_

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "codegen/compile/quantize.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/geometry.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::compile {

/// printf into a std::string; InternalError when the text would exceed 511
/// characters (never truncated). Names never go through it.
std::string Fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// The start of a generated constant array's definition, up to its
/// initialiser: "ARENAPLAN_CONST_ATTRIBUTES alignas(ALIGNMENT) const TYPE
/// ID[N]" (no alignas when `alignment` is 0). The macro (arenaplan/arena.hpp)
/// names the linker section of the model's constants when the firmware
/// defines ARENAPLAN_CONST_SECTION, and is empty otherwise.
[[nodiscard]] std::string ConstArrayHead(const char* type,
                                         const std::string& id, std::size_t n,
                                         int alignment);

/// Elements of `t` (the product of its shape; 1 for a scalar); -1 when a
/// dimension is negative (dynamic) or the product exceeds 2^48.
[[nodiscard]] std::int64_t ElementCount(const tflite::Tensor& t);

/// The product of shape[from, to) (1 when the range is empty). The caller
/// has checked the tensor's ElementCount, so it does not overflow.
[[nodiscard]] std::int64_t Product(const std::vector<std::int32_t>& shape,
                                   std::size_t from, std::size_t to);

/// A shape of at most 4 dimensions as NHWC, padded with leading 1s.
struct Dims4 : tflite::Nhwc {
  /// The kernels' k::Shape4 initializer.
  [[nodiscard]] std::string Code() const;
};

/// Per-tensor quantization: real = scale * (q - zero_point).
struct Affine {
  float scale;
  std::int32_t zero_point;
};

/// The operands of a layer with weights (CONV_2D, DEPTHWISE_CONV_2D,
/// FULLY_CONNECTED): input 0, the weights (input 1), the output, and the
/// quantization of the two int8 activations. References into the model.
struct LayerOperands {
  const tflite::Tensor& in;
  const tflite::Tensor& weights;
  const tflite::Tensor& out;
  Affine qi, qo;
};

/// Input 0 and the only output of an operator. References into the model.
struct UnaryOperands {
  const tflite::Tensor& in;
  const tflite::Tensor& out;
};

/// One lowered operator as the trace check sees it (codegen/trace/, built
/// into a schedule by trace_schedule.hpp): the tensors its call reads and
/// writes, and the overlaps its kernel's contract allows between them.
struct LoweredAccesses {
  std::size_t position = 0;    ///< Index in subgraph 0 of the model lowered.
  std::size_t file_index = 0;  ///< The file's operator number.
  std::string name;            ///< Builtin name, e.g. "CONV_2D".
  /// Tensor indices: every non-constant input in the plan (or an alias
  /// inside a planned tensor), once each; every output in the plan.
  std::vector<std::int32_t> reads, writes;
  /// An overlap the kernel's contract tolerates: `output` (a write) may
  /// share bytes with `input` (a read) when it starts `distance` bytes or
  /// more below it (kOutputBelowBy), or is the same bytes (kAlias).
  struct Overlap {
    std::int32_t input = -1, output = -1;
    OverlapRelation relation = OverlapRelation::kOutputBelowBy;
    std::uint64_t distance = 0;  ///< Bytes, unaligned.
  };
  std::vector<Overlap> overlaps;
  /// The plan record of the kernel scratch the call uses (-1: none) and
  /// the bytes [0, scratch_bytes) of it the kernel writes, then reads.
  std::int64_t scratch_record = -1;
  std::uint64_t scratch_bytes = 0;
};

/// An operator's kernel scratch in the plan (codegen/scratch/): its record
/// (-1: none) and its bytes (unaligned).
struct ScratchRecord {
  std::int64_t record = -1;
  std::uint64_t bytes = 0;
};

/// Lowers the operators of subgraph 0 of one model in order. Every failure
/// throws InputError "PATH: operator K (NAME): what".
class Lowerer {
 public:
  /// `model` and `problem` are borrowed for the Lowerer's lifetime.
  Lowerer(const tflite::Model& model, const std::string& path,
          const tflite::TfliteProblem& problem);

  /// Lowers every operator through the lowering table (CheckLowerable
  /// first).
  void Run();

  [[nodiscard]] const std::string& Constants() const { return consts_; }
  [[nodiscard]] const std::string& Body() const { return body_; }
  [[nodiscard]] std::uint64_t ConstantBytes() const { return const_bytes_; }
  /// ConstantBytes() as Run() started lowering each operator, in order
  /// (codegen/compile/profile.hpp).
  [[nodiscard]] const std::vector<std::uint64_t>& ConstantBytesBefore() const {
    return constants_before_;
  }
  [[nodiscard]] const std::string& States() const { return states_; }
  [[nodiscard]] const std::string& Reset() const { return reset_; }
  [[nodiscard]] std::uint64_t StateBytes() const { return state_bytes_; }

  /// The plan index of a graph input/output tensor (InputError if none).
  [[nodiscard]] std::int64_t RecordOf(std::int32_t t, const char* what) const;

  // --- for lowerings: the operator being lowered -------------------------

  /// Index of the operator being lowered in the file's subgraph 0 (see
  /// NumberOperators).
  [[nodiscard]] std::size_t OperatorIndex() const { return op_; }
  /// file_index[k]: the file's index of operator k of the model lowered,
  /// when operators were folded away (codegen/tflite/fold.hpp); messages,
  /// comments and identifiers then use the file's numbers. Call before
  /// Run().
  void NumberOperators(std::vector<std::size_t> file_index) {
    file_index_ = std::move(file_index);
  }
  [[nodiscard]] const tflite::Model& model() const { return model_; }
  [[noreturn]] void Fail(const std::string& what) const;

  // --- operand checks ----------------------------------------------------

  const tflite::Tensor& Input(const tflite::Operator& op, std::size_t i) const;
  /// The operator's only output.
  const tflite::Tensor& Output(const tflite::Operator& op) const;
  /// Input 0 and the output of `op` (Input, Output).
  [[nodiscard]] UnaryOperands Unary(const tflite::Operator& op) const;
  /// Input 0, input 1 and the output of `op`; input and output must be
  /// int8 activations (Int8Activation).
  [[nodiscard]] LayerOperands Layer(const tflite::Operator& op) const;
  [[nodiscard]] std::int32_t Index(const tflite::Tensor& t) const;
  /// "tensor K 'NAME'" for an error message (NAME escaped for a terminal).
  [[nodiscard]] std::string Describe(const tflite::Tensor& t) const;
  /// "tensor K 'NAME' TYPE SHAPE" for a generated comment (NAME through
  /// CommentText: printable ASCII, nothing that ends the comment).
  [[nodiscard]] std::string CommentOn(const tflite::Tensor& t,
                                      const char* type) const;
  /// At most 4 positive dimensions, padded to NHWC.
  [[nodiscard]] Dims4 Shape(const tflite::Tensor& t) const;
  /// Per-tensor int8 quantization of an activation.
  [[nodiscard]] Affine Int8Activation(const tflite::Tensor& t) const;
  /// Per-tensor quantization of an int8, int16 or int32 tensor (zero point
  /// within the type's range).
  [[nodiscard]] Affine PerTensor(const tflite::Tensor& t) const;
  /// A constant's single scale, with zero point 0 (symmetric).
  [[nodiscard]] float SymmetricScale(const tflite::Tensor& t) const;
  /// QuantizeMultiplier(real) for a kernel; fails (naming `what`) when
  /// `real` is not finite, negative (unless `negative_ok`: the per-channel
  /// requantization TFLite runs with a negative multiplier) or the shift is
  /// outside [-31, 30].
  [[nodiscard]] QuantizedMultiplier Multiplier(double real,
                                               const std::string& what,
                                               bool negative_ok = false) const;
  /// The clamp range of `a` on the int8 (or int16) output `out_tensor`
  /// quantized as `out` (NONE, RELU, RELU_N1_TO_1, RELU6; anything else fails,
  /// and so do bounds that do not quantize into int32, as in TFLite).
  [[nodiscard]] ActivationRange Activation(
      tflite::Activation a, const Affine& out,
      const tflite::Tensor& out_tensor) const;
  template <class Options>
  const Options& OptionsOf(const tflite::Operator& op) const {
    const Options* o = std::get_if<Options>(&op.options);
    if (o == nullptr) Fail("builtin options are missing");
    return *o;
  }
  void CheckStride(std::int32_t sh, std::int32_t sw) const;
  /// The geometry of an accepted operator (codegen/tflite/geometry.hpp);
  /// fails with the refusal's reason otherwise.
  template <class Geometry>
  Geometry Accept(std::variant<Geometry, tflite::Refusal> checked) const {
    if (const auto* r = std::get_if<tflite::Refusal>(&checked)) {
      Fail(r->tensor != nullptr ? Describe(*r->tensor) + r->what : r->what);
    }
    return std::get<Geometry>(std::move(checked));
  }

  /// Fails when an input or output of `op` has more elements than the
  /// kernels' std::int32_t counts and indices hold (2^31 - 1); Run() calls
  /// it for every operator before its lowering.
  void CheckElementCounts(const tflite::Operator& op) const;
  void CheckOutputShape(const Dims4& got, const Dims4& expect) const;
  /// "std::int8_t", "std::int16_t", "std::int32_t", "std::uint8_t",
  /// "float"; nullptr otherwise.
  [[nodiscard]] static const char* CType(tflite::TensorType type);

  /// Addresses planned tensors in their memory regions (a plan across
  /// regions, codegen/regions/regions.hpp): Arena::Address(record) instead of
  /// `arena` + offset. Call before Run().
  void AddressInRegions() { in_regions_ = true; }

  /// scratch[k]: the kernel scratch record of operator k of the model
  /// lowered (codegen/scratch/kernel_scratch.hpp). Call before Run().
  void PlaceScratch(std::vector<ScratchRecord> scratch) {
    scratch_ = std::move(scratch);
  }
  /// The address (std::int8_t*) of the current operator's scratch record,
  /// for a kernel that needs `bytes` of it; the trace check sees the call
  /// write and read those bytes. InternalError when the operator has no
  /// scratch record of that many bytes (the sizing in codegen/scratch/
  /// and the lowering disagree).
  [[nodiscard]] std::string Scratch(std::uint64_t bytes);

  // --- addresses of planned tensors --------------------------------------

  /// "k::Shape4{n, h, w, c}, ADDRESS": a kernel operand of shape `shape`
  /// at planned tensor `t`.
  [[nodiscard]] std::string Operand(const tflite::Nhwc& shape,
                                    const tflite::Tensor& t) const;

  /// Address expression of a planned (activation) tensor.
  [[nodiscard]] std::string Addr(const tflite::Tensor& t) const;
  /// Address expression of a planned tensor as a pointer to `ctype`
  /// (offsets are multiples of the plan's alignment, >= 16 bytes, so any
  /// integer element type is aligned).
  [[nodiscard]] std::string TypedAddr(const tflite::Tensor& t,
                                      const char* ctype) const;

  // --- the constant pool -------------------------------------------------

  /// Emits an int8 constant once; returns its identifier.
  std::string ConstInt8(const tflite::Tensor& t);
  /// Emits an int16 constant once; returns its identifier.
  std::string ConstInt16(const tflite::Tensor& t);
  /// The data of an int32 constant.
  [[nodiscard]] std::vector<std::int32_t> Int32Values(
      const tflite::Tensor& t) const;
  /// The data of an int8 constant.
  [[nodiscard]] std::vector<std::int8_t> Int8Values(
      const tflite::Tensor& t) const;
  /// The data of an int64 constant (lowering_wide.cpp).
  [[nodiscard]] std::vector<std::int64_t> Int64Values(
      const tflite::Tensor& t) const;
  /// Emits `const std::int64_t ID[] = {v...}` after a `// comment` line
  /// (`comment` passes through CommentText); lowering_wide.cpp.
  std::string EmitInt64Array(const std::string& id, const std::string& comment,
                             const std::vector<std::int64_t>& v);
  /// Emits `const std::int16_t ID[] = {v...}` after a `// comment` line
  /// the first time `id` is asked for (a table every operator of a kind
  /// shares); returns `id`. lowering_wide.cpp.
  std::string EmitInt16TableOnce(const std::string& id,
                                 const std::string& comment,
                                 const std::vector<std::int16_t>& v);
  /// The bias (optional input `input`) of `channels` entries of a 16x8
  /// layer with a 64-bit accumulator, as an identifier of an int64 array:
  /// an INT64 constant, or (`int16_ok`) an INT16 one widened on the host
  /// (as TFLM's TRANSPOSE_CONV widens it at run time). Without a bias:
  /// "static_cast<const std::int64_t*>(nullptr)". lowering_wide.cpp.
  std::string Int64Bias(const tflite::Operator& op, std::int32_t channels,
                        std::size_t input, bool int16_ok);
  /// The data of a float32 constant; fails when an element is NaN (no
  /// literal names a NaN's bits; infinities are written exactly).
  /// lowering_float.cpp.
  [[nodiscard]] std::vector<float> FloatValues(const tflite::Tensor& t) const;
  /// Emits `const float ID[] = {v...}` (edge_types.hpp's ExactFloatLiteral
  /// each) after a
  /// `// comment` line (`comment` passes through CommentText).
  std::string EmitFloatArray(const std::string& id, const std::string& comment,
                             const std::vector<float>& v);
  /// Emits a float32 constant once (FloatValues, EmitFloatArray); returns
  /// its identifier.
  std::string ConstFloat(const tflite::Tensor& t);
  /// The FLOAT32 bias (optional input `input`) of `channels` entries as an
  /// identifier, or "static_cast<const float*>(nullptr)".
  std::string FloatBias(const tflite::Operator& op, std::int32_t channels,
                        std::size_t input = 2);
  /// The values of the int32 bias (optional input `input`) of `channels`
  /// entries; empty when the operator has none.
  [[nodiscard]] std::vector<std::int32_t> BiasValues(
      const tflite::Operator& op, std::int32_t channels,
      std::size_t input = 2) const;
  /// Emits `const std::int8_t ID[] = {v...}` after a `// comment` line
  /// (`comment` passes through CommentText); for constants reordered at
  /// generation time.
  std::string EmitInt8Array(const std::string& id, const std::string& comment,
                            const std::vector<std::int8_t>& v);
  /// Emits `const std::int32_t ID[] = {v...}` after a `// comment` line
  /// (`comment` passes through CommentText).
  std::string EmitInt32Array(const std::string& id, const std::string& comment,
                             const std::vector<std::int32_t>& v);
  /// The int32 bias (optional input `input`) of `channels` entries as an
  /// identifier, or "nullptr".
  std::string Bias(const tflite::Operator& op, std::int32_t channels,
                   std::size_t input = 2);
  /// How in_scale * w_scale is formed before the division by out_scale:
  /// in double (TFLite's convolutions and per-channel FULLY_CONNECTED,
  /// PopulateConvolutionQuantizationParams and its FULLY_CONNECTED copy),
  /// or in float, rounded to float, then widened (TFLite's per-tensor
  /// FULLY_CONNECTED, GetQuantizedConvolutionMultipler). The two can give
  /// multipliers one unit apart. As in TFLite, kDouble accepts a negative
  /// weight scale (old converters wrote some; the multiplier keeps the sign)
  /// and kFloat refuses a negative product.
  enum class ScaleProduct { kDouble, kFloat };
  /// Per-channel multipliers in_scale * w_scale[c] / out_scale along
  /// `dimension` of `w`; returns the k::ChannelQuant initializer. A
  /// negative multiplier only reaches the reference kernels (conv.hpp,
  /// fully_connected.hpp, transpose_conv.hpp): the fast kernels' output
  /// stage assumes non-negative ones (dsp.hpp), see NegateNegativeChannels
  /// (quantize.hpp).
  std::string ChannelQuant(const tflite::Tensor& w, std::int32_t channels,
                           std::int32_t dimension, float in_scale,
                           float out_scale,
                           ScaleProduct product = ScaleProduct::kDouble);
  /// ChannelQuant's multipliers, checked (failing as it does), without
  /// emitting anything.
  [[nodiscard]] std::vector<QuantizedMultiplier> ChannelMultipliers(
      const tflite::Tensor& w, std::int32_t channels, std::int32_t dimension,
      float in_scale, float out_scale,
      ScaleProduct product = ScaleProduct::kDouble) const;
  /// Emits `m` as the operator's kMultiplierK (int32) and kShiftK (int8)
  /// arrays; returns the k::ChannelQuant initializer.
  std::string EmitChannelQuant(const std::vector<QuantizedMultiplier>& m);
  /// A variable (persistent) int16 tensor: the planner leaves variable
  /// tensors out of the arena, so it gets its own static buffer (RAM,
  /// .bss, zero at start-up), set to `zero_point` again by ResetState().
  /// Returns its identifier.
  std::string State(const tflite::Tensor& t, std::int32_t zero_point);
  /// A variable float32 tensor in its own static buffer (RAM, .bss, 0.0f
  /// at start-up), set to 0.0f again by ResetState(). lowering_float.cpp.
  std::string StateFloat(const tflite::Tensor& t);
  /// A variable int8 tensor in its own static buffer (RAM, .data)
  /// initialized to `zero_point` (TFLM's ResetVariableTensors fills an int8
  /// variable with its zero point) and set to it again by ResetState().
  /// Returns its identifier.
  std::string StateInt8(const tflite::Tensor& t, std::int32_t zero_point);

  /// Appends `code` (whole lines) to Invoke()'s body.
  void Emit(const std::string& code) { body_ += code; }

  /// States, for the trace check, that the kernel the current operator's
  /// call runs tolerates its output `out` sharing bytes with its input `in`
  /// under `relation` at `distance` bytes (the kernel header's own distance
  /// function for the call's parameters; kAlias: 0). A negative distance
  /// states nothing.
  void StateOverlap(const tflite::Tensor& in, const tflite::Tensor& out,
                    OverlapRelation relation, std::int64_t distance);
  /// The element-wise contract (kernels/overlap.hpp's
  /// ElementwiseOverlapDistance over `out`'s elements and the two tensors'
  /// element sizes: 0 for equal sizes, as kElementwiseOverlapDistance)
  /// between `in` and `out`.
  void StateElementwise(const tflite::Tensor& in, const tflite::Tensor& out);
  /// Every operator lowered so far, in execution order (folded ones,
  /// which run no kernel, are not in it).
  [[nodiscard]] const std::vector<LoweredAccesses>& Accesses() const {
    return accesses_;
  }

 private:
  bool in_regions_ = false;             ///< See AddressInRegions().
  std::vector<ScratchRecord> scratch_;  ///< See PlaceScratch().

  /// Address expression (std::int8_t*) of plan record `r`.
  [[nodiscard]] std::string RecordAddr(std::int64_t r) const;

  /// Appends the operator's reads and writes to accesses_.
  void RecordAccesses(const tflite::Operator& op);

  /// The one scale (positive, finite) and zero point (in [lo, hi]) of `t`.
  [[nodiscard]] Affine Quantization(const tflite::Tensor& t, std::int64_t lo,
                                    std::int64_t hi) const;

  const std::vector<std::uint8_t>& Data(const tflite::Tensor& t,
                                        tflite::TensorType type,
                                        std::size_t elem) const;

  const tflite::Model& model_;
  const tflite::Subgraph& sg_;
  std::string path_;
  std::vector<std::int64_t> record_of_;
  std::size_t op_ = 0;
  std::size_t pos_ = 0;  ///< Position of operator op_ in sg_.operators.
  std::vector<std::size_t> file_index_;          ///< See NumberOperators().
  std::vector<std::uint64_t> constants_before_;  ///< ConstantBytesBefore().
  std::map<std::int32_t, std::string> emitted_;
  std::set<std::string> tables_;  ///< See EmitInt16TableOnce().
  std::string consts_;
  std::string body_;
  std::string states_;  ///< Declarations of the state buffers.
  std::string reset_;   ///< Body of ResetState().
  std::uint64_t const_bytes_ = 0;
  std::uint64_t state_bytes_ = 0;
  std::vector<LoweredAccesses> accesses_;  ///< See Accesses().
};

/// Lowers one operator: checks it, emits its constants and one kernel call.
using LowerFn = void (*)(Lowerer& lowerer, const tflite::Operator& op);

/// One line of the lowering table.
struct Lowering {
  tflite::BuiltinOp builtin_code;
  LowerFn lower;
};

/// Every operator the kernels support, in the order error messages list
/// them (lowering_table.cpp).
[[nodiscard]] std::span<const Lowering> LoweringTable();

/// The lowering of `builtin_code`; nullptr when no kernel supports it.
[[nodiscard]] LowerFn FindLowering(tflite::BuiltinOp builtin_code);

/// "CONV_2D, DEPTHWISE_CONV_2D, ...": the table's operator names.
[[nodiscard]] std::string SupportedOperatorNames();

/// Refuses (InputError, one line) a model whose subgraph 0 holds operators
/// without a lowering, naming every such operator kind with its count in
/// order of first appearance, a CUSTOM one by its custom code:
/// "PATH: cannot lower 3 operators: PAD x2, CUSTOM SignalWindow x1
/// (supported: ...)".
void CheckLowerable(const tflite::Model& model, const std::string& path);

// The lowerings (one file each: lower_<operator>.cpp).
void LowerConv2D(Lowerer& lowerer, const tflite::Operator& op);
void LowerDepthwiseConv2D(Lowerer& lowerer, const tflite::Operator& op);
void LowerAveragePool2D(Lowerer& lowerer, const tflite::Operator& op);
void LowerMaxPool2D(Lowerer& lowerer, const tflite::Operator& op);
void LowerFullyConnected(Lowerer& lowerer, const tflite::Operator& op);
void LowerSoftmax(Lowerer& lowerer, const tflite::Operator& op);
void LowerReshape(Lowerer& lowerer, const tflite::Operator& op);
void LowerAdd(Lowerer& lowerer, const tflite::Operator& op);
void LowerQuantize(Lowerer& lowerer, const tflite::Operator& op);
void LowerSvdf(Lowerer& lowerer, const tflite::Operator& op);
void LowerDequantize(Lowerer& lowerer, const tflite::Operator& op);
void LowerPad(Lowerer& lowerer, const tflite::Operator& op);
void LowerMean(Lowerer& lowerer, const tflite::Operator& op);
void LowerShape(Lowerer& lowerer, const tflite::Operator& op);
void LowerStridedSlice(Lowerer& lowerer, const tflite::Operator& op);
void LowerPack(Lowerer& lowerer, const tflite::Operator& op);
void LowerConcatenation(Lowerer& lowerer, const tflite::Operator& op);
void LowerLeakyRelu(Lowerer& lowerer, const tflite::Operator& op);
void LowerResizeNearestNeighbor(Lowerer& lowerer, const tflite::Operator& op);
void LowerTranspose(Lowerer& lowerer, const tflite::Operator& op);
void LowerRelu(Lowerer& lowerer, const tflite::Operator& op);
void LowerRelu6(Lowerer& lowerer, const tflite::Operator& op);
void LowerMul(Lowerer& lowerer, const tflite::Operator& op);
void LowerMaximum(Lowerer& lowerer, const tflite::Operator& op);
void LowerMinimum(Lowerer& lowerer, const tflite::Operator& op);
void LowerSub(Lowerer& lowerer, const tflite::Operator& op);
void LowerSplit(Lowerer& lowerer, const tflite::Operator& op);
void LowerSplitV(Lowerer& lowerer, const tflite::Operator& op);
void LowerUnpack(Lowerer& lowerer, const tflite::Operator& op);
void LowerHardSwish(Lowerer& lowerer, const tflite::Operator& op);
void LowerGather(Lowerer& lowerer, const tflite::Operator& op);
void LowerDiv(Lowerer& lowerer, const tflite::Operator& op);
void LowerResizeBilinear(Lowerer& lowerer, const tflite::Operator& op);
void LowerCast(Lowerer& lowerer, const tflite::Operator& op);
void LowerTile(Lowerer& lowerer, const tflite::Operator& op);
void LowerBatchMatmul(Lowerer& lowerer, const tflite::Operator& op);
void LowerTransposeConv(Lowerer& lowerer, const tflite::Operator& op);
void LowerUnidirectionalSequenceLstm(Lowerer& lowerer,
                                     const tflite::Operator& op);

/// The strides of `t` over the output's NHWC coordinates `out` (0 on a
/// broadcast dimension) into `stride[4]`, as a C++ initializer; fails when
/// `t` does not broadcast to `out` or has more than 4 dimensions
/// (lower_mul.cpp; MUL, MAXIMUM, MINIMUM, SUB).
std::string BroadcastStrides(const Lowerer& l, const tflite::Tensor& t,
                             const Dims4& out, std::int32_t* stride);

/// The type-neutral shape of a two-input broadcasting operator (int8, int16
/// and float32 ADD, SUB, MUL, ...): the output's NHWC shape and each
/// input's strides over it as C++ initializers. Fails when the output has
/// more than 4 dimensions or an input does not broadcast to it.
struct BroadcastShape {
  Dims4 out_shape;
  std::string a_strides, b_strides;
};
[[nodiscard]] BroadcastShape BroadcastShapeOf(const Lowerer& l,
                                              const tflite::Tensor& a,
                                              const tflite::Tensor& b,
                                              const tflite::Tensor& out);

/// The C element type of a data-movement operator (TRANSPOSE,
/// RESIZE_NEAREST_NEIGHBOR): input and output of one type, INT8 with one
/// quantization, or INT16 or INT32 (lower_transpose.cpp). Fails otherwise.
[[nodiscard]] const char* MovedElementType(Lowerer& l, const tflite::Tensor& in,
                                           const tflite::Tensor& out);

/// The C element type of TRANSPOSE or RESIZE_NEAREST_NEIGHBOR: its type
/// rule (type_rules.cpp) checked first, "float" for float32 tensors,
/// MovedElementType otherwise (lower_transpose.cpp).
[[nodiscard]] const char* RuledMovedType(Lowerer& l, const tflite::Operator& op,
                                         const tflite::Tensor& in,
                                         const tflite::Tensor& out);

/// The address of a data-movement operand `t` of C type `ctype`: a
/// constant array (int8, int16, int32, float32 constants) or its arena
/// address
/// (lower_gather.cpp; GATHER, TILE). Fails on other constants.
[[nodiscard]] std::string MovedOperand(Lowerer& l, const tflite::Tensor& t,
                                       const char* ctype);

/// The operands of a binary int8 operator with broadcasting (MUL, SUB,
/// MAXIMUM, MINIMUM): inputs 0 and 1 (either may be a constant) and the
/// output with their per-tensor quantization, the output's NHWC shape
/// (at most 4 dimensions), each input's strides over it and its address
/// (a constant array or an arena address). Fails on anything else.
struct BroadcastOperands {
  const tflite::Tensor& a;
  const tflite::Tensor& b;
  const tflite::Tensor& out;
  Affine qa, qb, qo;
  Dims4 out_shape;
  std::string a_strides, b_strides, a_addr, b_addr;
};
[[nodiscard]] BroadcastOperands Broadcast(Lowerer& l,
                                          const tflite::Operator& op);
/// Emits `k::KERNEL(k::KERNELParams{zero points a, b, out, multiplier,
/// shift, activation range, out shape, a strides, b strides}, a, b, out)`:
/// the call of the one-multiplier broadcasting kernels (MUL and DIV).
void EmitScaledBinary(Lowerer& l, const char* kernel,
                      const BroadcastOperands& x, const QuantizedMultiplier& m,
                      const ActivationRange& ar);
// The int16-activation lowerings (lower_conv16x8.cpp,
// lower_elementwise16.cpp), called by the operators' lowerings when the
// type rule (type_rules.hpp) matched int16 activations.
/// CONV_2D (depthwise false) or DEPTHWISE_CONV_2D 16x8.
void LowerConv16x8(Lowerer& l, const tflite::Operator& op, bool depthwise);
/// ADD (sign 1) or SUB (sign -1) of int16 tensors.
void LowerAddSub16(Lowerer& l, const tflite::Operator& op, int sign);
/// MUL of int16 tensors (lower_elementwise16.cpp).
void LowerMul16(Lowerer& l, const tflite::Operator& op);
/// Per-tensor quantization of an int16 activation of a 16x8 layer; fails
/// unless its zero point is 0 (TFLM's 16x8 kernels read no offset).
[[nodiscard]] Affine SymmetricInt16(const Lowerer& l, const tflite::Tensor& t);
/// Emits the per-channel multipliers of a 16x8 layer (as ChannelQuant, the
/// scale product formed as `product` says); with a 64-bit accumulator
/// (`wide_acc`) fails on a shift above 7, the range TFLite's int64
/// MultiplyByQuantizedMultiplier takes.
std::string Quant16x8(
    Lowerer& l, const tflite::Tensor& w, std::int32_t channels,
    std::int32_t dimension, const Affine& qi, const Affine& qo, bool wide_acc,
    Lowerer::ScaleProduct product = Lowerer::ScaleProduct::kDouble);
/// LOGISTIC (tanh false) or TANH on int16 (lower_sigmoid16.cpp).
void LowerSigmoid16(Lowerer& l, const tflite::Operator& op, bool tanh);
/// FULLY_CONNECTED 16x8 (lower_conv16x8.cpp).
void LowerFullyConnected16x8(Lowerer& l, const tflite::Operator& op);
void LowerLogistic(Lowerer& lowerer, const tflite::Operator& op);
void LowerTanh(Lowerer& lowerer, const tflite::Operator& op);
// The float32 lowerings (lower_*_f32.cpp), called by the operators'
// lowerings when the type rule (type_rules.hpp) matched float32 tensors,
// and their constants (lowering_float.cpp).
/// FULLY_CONNECTED of float32 tensors.
void LowerFullyConnectedF32(Lowerer& l, const tflite::Operator& op);
/// CONV_2D (depthwise false) or DEPTHWISE_CONV_2D of float32 tensors.
void LowerConvF32(Lowerer& l, const tflite::Operator& op, bool depthwise);
/// ADD, SUB, MUL or DIV (`kernel` "Add", "Sub", "Mul", "Div") of float32
/// tensors
/// with broadcasting and the fused activation (lower_elementwise_f32.cpp).
void LowerArithmeticF32(Lowerer& l, const tflite::Operator& op,
                        const char* kernel);
/// MAXIMUM (`maximum`) or MINIMUM of float32 tensors with broadcasting
/// (lower_elementwise_f32.cpp).
void LowerMaximumMinimumF32(Lowerer& l, const tflite::Operator& op,
                            bool maximum);
/// RELU, RELU6, LOGISTIC or TANH of float32 tensors: `kernel` ("Relu",
/// "Relu6", "Logistic", "Tanh") of k::f32 element by element
/// (lower_elementwise_f32.cpp).
void LowerUnaryF32(Lowerer& l, const tflite::Operator& op, const char* kernel);
/// SOFTMAX of float32 tensors (lower_elementwise_f32.cpp).
void LowerSoftmaxF32(Lowerer& l, const tflite::Operator& op);
/// The k::f32::ActivationRange initializer of fused activation `a` with
/// TFLite's float bounds (CalculateActivationRange<float>: NONE
/// [lowest, max], RELU [0, max], RELU_N1_TO_1 [-1, 1], RELU6 [0, 6]; max
/// is FLT_MAX, not infinity); fails on any other activation.
[[nodiscard]] std::string FloatActivationCode(const Lowerer& l,
                                              tflite::Activation a);
/// A FULLY_CONNECTED's geometry: the input read as `batches` rows of
/// `depth`, `units` outputs per row.
struct FullyConnectedShape {
  std::int64_t batches;
  std::int32_t depth, units;
};
/// Checks a FULLY_CONNECTED's options (no shuffled weights) and shapes
/// (weights [units, depth], input elements a multiple of depth, output
/// batches x units); fails naming what does not fit
/// (lower_fully_connected.cpp; every element type).
[[nodiscard]] FullyConnectedShape CheckFullyConnected(
    const Lowerer& l, const tflite::Operator& op);

// Overlap statements for the trace check (stated_overlap.cpp), each from
// the distance function of the kernel header the call runs.
/// conv.hpp's Conv2DOverlapDistance, or DepthwiseConv2DOverlapDistance when
/// `depthwise` (which fast_conv.hpp's kernels keep), for geometry `g`.
void StateConvOverlap(Lowerer& l, const tflite::Tensor& in,
                      const tflite::Tensor& out, const tflite::ConvGeometry& g,
                      bool depthwise);
/// pooling.hpp's PoolOverlapDistance for geometry `g`.
void StatePoolOverlap(Lowerer& l, const tflite::Tensor& in,
                      const tflite::Tensor& out, const tflite::PoolGeometry& g);
/// pad.hpp's PadOverlapDistance (elements, stated in bytes of `in`'s type)
/// of input shape `in_shape` padded by `before`/`after`.
void StatePadOverlap(Lowerer& l, const tflite::Tensor& in,
                     const tflite::Tensor& out, const Dims4& in_shape,
                     const std::int32_t before[4], const std::int32_t after[4]);
/// The element-wise contract of the broadcasting binary kernels (MUL, SUB,
/// DIV, MAXIMUM, MINIMUM) for each input of the output's shape.
void StateUnbroadcastOverlaps(Lowerer& l, const BroadcastOperands& x);
/// The element-wise contract for each of `a` and `b` that has `out`'s
/// shape and is not a constant (a broadcast walk reads such an input's
/// element i for output element i); none for a broadcast input.
void StateSameShapeInputs(Lowerer& l, const tflite::Tensor& a,
                          const tflite::Tensor& b, const tflite::Tensor& out);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_LOWERING_HPP_
