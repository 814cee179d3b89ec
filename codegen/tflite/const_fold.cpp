// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/const_fold.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <utility>

namespace arenaplan::tflite {
namespace {

using Bytes = std::vector<std::uint8_t>;

/// Largest output folded (bytes): shape chains and zero states are far
/// smaller; a larger FILL stays for its lowering.
constexpr std::int64_t kMaxFoldedBytes = std::int64_t{1} << 20;

/// Elements of a static shape; nullopt when a dimension is negative or the
/// count exceeds 2^31 - 1.
std::optional<std::int64_t> StaticCount(const std::vector<std::int32_t>& s) {
  std::int64_t n = 1;
  for (std::int32_t d : s) {
    if (d < 0) return std::nullopt;
    n *= d;
    if (n > INT_MAX) return std::nullopt;
  }
  return n;
}

}  // namespace

std::uint32_t HalfToFloatBits(std::uint32_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  std::uint32_t fraction = h & 0x3FFu;
  if (exponent == 0x1F) return sign | 0x7F800000u | (fraction << 13);
  if (exponent != 0) return sign | ((exponent + 112) << 23) | (fraction << 13);
  if (fraction == 0) return sign;  // +-0
  // A subnormal half, fraction * 2^-24: shift the leading 1 up to bit 10.
  std::uint32_t e = 113;  // the exponent field of 2^-14
  while ((fraction & 0x400u) == 0) {
    fraction <<= 1;
    --e;
  }
  return sign | (e << 23) | ((fraction & 0x3FFu) << 13);
}

namespace {

class ConstantFolder {
 public:
  explicit ConstantFolder(Model& m) : m_(m), sg_(m.subgraphs[0]) {}

  /// The bytes of `op`'s output, or nullopt when the rule does not fold it.
  std::optional<Bytes> Fold(const Operator& op) const {
    if (op.outputs.size() != 1 || op.outputs[0] < 0) return std::nullopt;
    const Tensor& out = T(op.outputs[0]);
    if (out.is_variable || m_.IsConstant(out)) return std::nullopt;
    if (std::find(sg_.outputs.begin(), sg_.outputs.end(), op.outputs[0]) !=
        sg_.outputs.end()) {
      return std::nullopt;
    }
    const auto count = StaticCount(out.shape);
    const auto elem = ElementSize(out.type);
    if (!count || *count == 0 || !elem || *count * *elem > kMaxFoldedBytes) {
      return std::nullopt;
    }
    std::optional<Bytes> b;
    switch (op.builtin_code) {
      case BuiltinOp::kShape:
        b = Shape(op, out);
        break;
      case BuiltinOp::kFill:
        b = Fill(op, out, *count, *elem);
        break;
      case BuiltinOp::kStridedSlice:
        b = StridedSlice(op, out, *elem);
        break;
      case BuiltinOp::kPack:
        b = Pack(op, out, *elem);
        break;
      case BuiltinOp::kConcatenation:
        b = Concatenation(op, out, *elem);
        break;
      case BuiltinOp::kDequantize:
        b = WidenHalf(op, out, *count);
        break;
      default:
        return std::nullopt;
    }
    if (!b || static_cast<std::int64_t>(b->size()) != *count * *elem) {
      return std::nullopt;
    }
    return b;
  }

 private:
  const Tensor& T(std::int32_t i) const {
    return sg_.tensors[static_cast<std::size_t>(i)];
  }

  /// The data of input `i` of `op` when it is constant with data of its
  /// static shape's size; nullptr otherwise.
  const Bytes* Data(const Operator& op, std::size_t i) const {
    if (i >= op.inputs.size() || op.inputs[i] < 0) return nullptr;
    const Tensor& t = T(op.inputs[i]);
    if (!m_.IsConstant(t)) return nullptr;
    const Bytes& d = m_.buffers[t.buffer].data;
    const auto count = StaticCount(t.shape);
    const auto elem = ElementSize(t.type);
    if (!count || !elem || d.size() != static_cast<std::size_t>(*count) * *elem)
      return nullptr;
    return &d;
  }

  /// Integer values of a constant INT32 (or, when `int64`, INT64) input.
  std::optional<std::vector<std::int64_t>> Ints(const Operator& op,
                                                std::size_t i,
                                                bool int64) const {
    const Bytes* d = Data(op, i);
    if (d == nullptr) return std::nullopt;
    const TensorType type = T(op.inputs[i]).type;
    std::vector<std::int64_t> v;
    if (type == TensorType::kInt32) {
      for (std::size_t k = 0; k + 4 <= d->size(); k += 4) {
        std::int32_t x;
        std::memcpy(&x, d->data() + k, 4);  // little-endian host and file
        v.push_back(x);
      }
    } else if (int64 && type == TensorType::kInt64) {
      for (std::size_t k = 0; k + 8 <= d->size(); k += 8) {
        std::int64_t x;
        std::memcpy(&x, d->data() + k, 8);
        v.push_back(x);
      }
    } else {
      return std::nullopt;
    }
    return v;
  }

  /// An input whose bytes can be copied into the output: same type, and
  /// for 8- and 16-bit integers the same quantization.
  bool LikeOutput(const Tensor& in, const Tensor& out) const {
    if (in.type != out.type) return false;
    if (in.type == TensorType::kInt8 || in.type == TensorType::kUint8 ||
        in.type == TensorType::kInt16) {
      return in.quantization.scale == out.quantization.scale &&
             in.quantization.zero_point == out.quantization.zero_point;
    }
    return true;
  }

  std::optional<Bytes> Shape(const Operator& op, const Tensor& out) const {
    if (op.inputs.empty() || op.inputs[0] < 0) return std::nullopt;
    const Tensor& in = T(op.inputs[0]);
    if (!StaticCount(in.shape)) return std::nullopt;
    Bytes b;
    for (std::int32_t d : in.shape) {
      if (out.type == TensorType::kInt32) {
        b.insert(b.end(), reinterpret_cast<const std::uint8_t*>(&d),
                 reinterpret_cast<const std::uint8_t*>(&d) + 4);
      } else if (out.type == TensorType::kInt64) {
        const std::int64_t x = d;
        b.insert(b.end(), reinterpret_cast<const std::uint8_t*>(&x),
                 reinterpret_cast<const std::uint8_t*>(&x) + 8);
      } else {
        return std::nullopt;
      }
    }
    return b;
  }

  std::optional<Bytes> Fill(const Operator& op, const Tensor& out,
                            std::int64_t count, std::uint32_t elem) const {
    const auto dims = Ints(op, 0, /*int64=*/true);
    const Bytes* value = Data(op, 1);
    if (!dims || value == nullptr || value->size() != elem) return std::nullopt;
    const Tensor& v = T(op.inputs[1]);
    if (!LikeOutput(v, out)) return std::nullopt;
    if (dims->size() != out.shape.size()) return std::nullopt;
    for (std::size_t i = 0; i < dims->size(); ++i) {
      if ((*dims)[i] != out.shape[i]) return std::nullopt;
    }
    Bytes b;
    b.reserve(static_cast<std::size_t>(count) * elem);
    for (std::int64_t i = 0; i < count; ++i)
      b.insert(b.end(), value->begin(), value->end());
    return b;
  }

  /// DEQUANTIZE of a FLOAT16 constant to FLOAT32: every half widened
  /// exactly (IEEE binary16 is a subset of binary32: sign, exponent
  /// rebiased by 127 - 15, the 10 fraction bits moved up by 13;
  /// subnormal halves become normal floats, infinities stay, a NaN keeps
  /// its sign and payload).
  std::optional<Bytes> WidenHalf(const Operator& op, const Tensor& out,
                                 std::int64_t count) const {
    const Bytes* data = Data(op, 0);
    if (data == nullptr || T(op.inputs[0]).type != TensorType::kFloat16 ||
        out.type != TensorType::kFloat32 ||
        data->size() != static_cast<std::size_t>(count) * 2) {
      return std::nullopt;
    }
    Bytes b(static_cast<std::size_t>(count) * 4);
    for (std::int64_t i = 0; i < count; ++i) {
      const auto k = static_cast<std::size_t>(i);
      const std::uint32_t h = (*data)[2 * k] | ((*data)[2 * k + 1] << 8);
      const std::uint32_t f = HalfToFloatBits(h);
      std::memcpy(b.data() + 4 * k, &f, 4);  // little-endian host and file
    }
    return b;
  }

  std::optional<Bytes> StridedSlice(const Operator& op, const Tensor& out,
                                    std::uint32_t elem) const {
    const auto* o = std::get_if<StridedSliceOptions>(&op.options);
    const Bytes* data = Data(op, 0);
    if (o == nullptr || data == nullptr || o->ellipsis_mask != 0 ||
        o->new_axis_mask != 0 || o->offset) {
      return std::nullopt;
    }
    const Tensor& in = T(op.inputs[0]);
    if (!LikeOutput(in, out)) return std::nullopt;
    const auto begin = Ints(op, 1, false), end = Ints(op, 2, false),
               strides = Ints(op, 3, false);
    const std::size_t rank = in.shape.size();
    if (!begin || !end || !strides || begin->size() != rank ||
        end->size() != rank || strides->size() != rank || rank > 31) {
      return std::nullopt;
    }
    // Each axis's input indices, by strided_slice_logic.h's StartForAxis
    // and StopForAxis (positive or negative stride, masks, shrink).
    std::vector<std::vector<std::int64_t>> picks(rank);
    for (std::size_t a = 0; a < rank; ++a) {
      const std::int64_t size = in.shape[a], st = (*strides)[a];
      if (size <= 0 || st == 0) return std::nullopt;
      std::int64_t b = (*begin)[a];
      if (o->begin_mask & (1 << a)) b = st > 0 ? INT_MIN : INT_MAX;
      if (b < 0) b += size;
      b = st > 0 ? std::clamp<std::int64_t>(b, 0, size)
                 : std::clamp<std::int64_t>(b, -1, size - 1);
      std::int64_t e;
      if (o->shrink_axis_mask & (1 << a)) {
        e = b + 1;
      } else {
        e = (*end)[a];
        if (o->end_mask & (1 << a)) e = st > 0 ? INT_MAX : INT_MIN;
        if (e < 0) e += size;
        e = st > 0 ? std::clamp<std::int64_t>(e, 0, size)
                   : std::clamp<std::int64_t>(e, -1, size - 1);
      }
      for (std::int64_t i = b; st > 0 ? i < e : i > e; i += st) {
        if (i < 0 || i >= size) return std::nullopt;
        picks[a].push_back(i);
      }
    }
    // Row-major strides of the input, in elements.
    std::vector<std::int64_t> stride(rank, 1);
    for (std::size_t a = rank; a-- > 1;)
      stride[a - 1] = stride[a] * in.shape[a];
    Bytes b;
    std::vector<std::size_t> at(rank, 0);
    for (const auto& p : picks) {
      if (p.empty()) return b;  // an empty slice
    }
    while (true) {
      std::int64_t src = 0;
      for (std::size_t a = 0; a < rank; ++a) src += picks[a][at[a]] * stride[a];
      const auto* p = data->data() + static_cast<std::size_t>(src) * elem;
      b.insert(b.end(), p, p + elem);
      std::size_t a = rank;
      while (a > 0) {
        --a;
        if (++at[a] < picks[a].size()) break;
        at[a] = 0;
        if (a == 0) return b;
      }
      if (rank == 0) return b;
    }
  }

  /// Inputs stacked (PACK, `pack`) or joined (CONCATENATION) along `axis`
  /// of the output: outer = product of the output's dimensions before the
  /// axis; each outer step takes each input's share in turn.
  std::optional<Bytes> Join(const Operator& op, const Tensor& out,
                            std::uint32_t elem, std::int64_t axis,
                            bool pack) const {
    const auto rank = static_cast<std::int64_t>(out.shape.size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank || op.inputs.empty()) return std::nullopt;
    std::int64_t outer = 1;
    for (std::int64_t a = 0; a < axis; ++a) outer *= out.shape[a];
    if (outer <= 0) return std::nullopt;
    std::vector<const Bytes*> in;
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
      const Bytes* d = Data(op, i);
      if (d == nullptr) return std::nullopt;
      const Tensor& t = T(op.inputs[i]);
      if (!LikeOutput(t, out)) return std::nullopt;
      if (static_cast<std::int64_t>(t.shape.size()) != (pack ? rank - 1 : rank))
        return std::nullopt;
      for (std::int64_t a = 0; a < axis; ++a) {
        if (t.shape[static_cast<std::size_t>(a)] !=
            out.shape[static_cast<std::size_t>(a)])
          return std::nullopt;
      }
      if (d->size() % static_cast<std::size_t>(outer) != 0) return std::nullopt;
      in.push_back(d);
    }
    Bytes b;
    for (std::int64_t k = 0; k < outer; ++k) {
      for (const Bytes* d : in) {
        const std::size_t share = d->size() / static_cast<std::size_t>(outer);
        const auto* p = d->data() + static_cast<std::size_t>(k) * share;
        b.insert(b.end(), p, p + share);
      }
    }
    (void)elem;
    return b;
  }

  std::optional<Bytes> Pack(const Operator& op, const Tensor& out,
                            std::uint32_t elem) const {
    if (op.inputs.empty() || op.inputs[0] < 0) return std::nullopt;
    const auto n = static_cast<std::int32_t>(op.inputs.size());
    const Tensor& in0 = T(op.inputs[0]);
    std::int64_t axis = -1;
    int candidates = 0;
    for (std::size_t a = 0; a < out.shape.size(); ++a) {
      if (out.shape[a] != n) continue;
      std::vector<std::int32_t> s = out.shape;
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(a));
      if (s == in0.shape) {
        axis = static_cast<std::int64_t>(a);
        ++candidates;
      }
    }
    if (candidates != 1) return std::nullopt;
    return Join(op, out, elem, axis, /*pack=*/true);
  }

  std::optional<Bytes> Concatenation(const Operator& op, const Tensor& out,
                                     std::uint32_t elem) const {
    const auto* o = std::get_if<ConcatenationOptions>(&op.options);
    if (o == nullptr || o->activation != Activation::kNone) return std::nullopt;
    return Join(op, out, elem, o->axis, /*pack=*/false);
  }

  Model& m_;
  Subgraph& sg_;
};

}  // namespace

FoldResult FoldConstants(const Model& model) {
  FoldResult r{model, {}, {}};
  if (r.model.subgraphs.empty()) return r;
  Subgraph& sg = r.model.subgraphs[0];
  std::vector<Operator> kept;
  ConstantFolder folder(r.model);
  for (std::size_t k = 0; k < sg.operators.size(); ++k) {
    const Operator& op = sg.operators[k];
    std::optional<Bytes> b = folder.Fold(op);
    if (!b) {
      kept.push_back(op);
      r.file_index.push_back(k);
      continue;
    }
    // A new buffer, so no other tensor sharing the output's buffer changes.
    r.model.buffers.push_back(Buffer{std::move(*b), 0, 0});
    sg.tensors[static_cast<std::size_t>(op.outputs[0])].buffer =
        static_cast<std::uint32_t>(r.model.buffers.size() - 1);
    r.folded.push_back({k, op.builtin_name, op.outputs[0]});
  }
  sg.operators = std::move(kept);
  return r;
}

std::string FoldedText(const std::vector<FoldedOperator>& f) {
  std::string s;
  for (const FoldedOperator& o : f) {
    if (!s.empty()) s += ", ";
    s += "operator " + std::to_string(o.op) + " " + o.builtin + " -> tensor " +
         std::to_string(o.output);
  }
  return s;
}

}  // namespace arenaplan::tflite
