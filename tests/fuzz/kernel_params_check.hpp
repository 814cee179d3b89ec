// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The compile fuzz target's check of the kernel parameters in generated
// code (compile_lowering_fuzz.cpp): every parameter literal of a kernel
// call is read back from the text and checked against what the kernel
// assumes, so that no model can make the generated code overflow, shift by
// an invalid amount or read outside an array. A failed check aborts
// (fuzz::Check). The ranges:
//  - k::ConvParams: nine fields, k::DilatedConvParams those and the two
//    dilation factors (conv.hpp); strides >= 1, factors in [1, 2^16];
//  - Q0.31 multipliers 0 or in [2^30, 2^31), shifts in [-31, 30]
//    (MultiplyByQuantizedMultiplier, quantization.hpp); per-channel ones
//    (kMultiplierK) may also lie in [-2^31, -2^30] (a negative weight
//    scale), but not those of a fast kernel's call (Conv2DFast,
//    DepthwiseConv2DFast, FullyConnectedFast: dsp.hpp's output stage
//    assumes non-negative multipliers); zero points in the
//    type's range; activation clamps min <= max within int8;
//  - k::AddParams (add.hpp, Add / AddFast / AddBroadcast): |x + offset| <=
//    255 is shifted left by left_shift, and the two rescaled inputs are
//    summed in int32: input multipliers below 1 (shift <= 0, so each term
//    keeps |term| <= 255 * 2^left_shift) and left_shift in [0, 22] (2 *
//    255 * 2^22 < 2^31); the output multiplier below 1 (shift <= 0), so the
//    rescaled sum stays below 2^31 - 2^23 and adding the output zero point
//    cannot overflow; count >= 0;
//  - k::AddBroadcast: the output Shape4 has dimensions >= 0 whose product
//    is AddParams' count; each input's strides are >= 0 and, on every
//    output dimension above 1, either 0 (broadcast) or the row-major stride
//    of the input shape they imply (the product of the output dimensions
//    after it whose stride is not 0), so the largest index read,
//    sum (dim - 1) * stride, is below that input's element count, which is
//    at most `count`; a constant input (kConstN) holds that many elements;
//  - k::SequenceLstmParams (lstm.hpp): batches, time steps, input size and
//    units >= 1, every index (row * size, unit * size) within int32; input
//    and hidden offsets the negated int8 zero points, hidden_offset ==
//    -hidden_zero_point; each gate's weights kConstN hold units x
//    input_size and units x units int8 values, its bias (or nullptr) units
//    int32 values, its multipliers and shifts in range; the cell tanh
//    (TanhInt16) multiplies an int16 by 3 << shift when its multiplier is 0
//    (shift in [0, 14]: 32768 * 3 * 2^14 < 2^31) or by 3 and shifts right
//    (shift in [1, 31]); cell_clip in [0, 32767]; the three LstmMul
//    multipliers and shifts in range, the output one with shift <= 1
//    (|x * y| <= 32767^2, times 2^1 stays below 2^31 - 2^17, so adding
//    the hidden zero point cannot overflow); the hidden (int8) and cell
//    (int16) state arrays kStateN hold batches x units values.
#ifndef ARENAPLAN_TESTS_FUZZ_KERNEL_PARAMS_CHECK_HPP_
#define ARENAPLAN_TESTS_FUZZ_KERNEL_PARAMS_CHECK_HPP_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/fuzz_check.hpp"

namespace arenaplan::fuzz {

/// The text of the brace-enclosed initializer that starts at `open` (a
/// '{') of `text`, without its outer braces.
inline std::string BracedText(const std::string& text, std::size_t open) {
  Check(open < text.size() && text[open] == '{');
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) {
      return text.substr(open + 1, i - open - 1);
    }
  }
  Check(false);
  return {};
}

/// The words of `text` (runs of letters, digits, '_', ':' and '-'), in
/// order; braces, commas and spaces separate them.
inline std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::string w;
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '-') {
      w += c;
    } else if (!w.empty()) {
      words.push_back(w);
      w.clear();
    }
  }
  if (!w.empty()) words.push_back(w);
  return words;
}

/// `word` as an integer (the whole word must be one).
inline long long Integer(const std::string& word) {
  Check(!word.empty());
  char* end = nullptr;
  const long long v = std::strtoll(word.c_str(), &end, 10);
  Check(end == word.c_str() + word.size());
  return v;
}

/// The elements of the array `name` (kConstN, kStateN) as `source`
/// declares it ("TYPE name[N]"; a string literal initializer counts its
/// terminating NUL in N, which is not an element), or -1 when it is not
/// declared.
inline long long ArrayElements(const std::string& source,
                               const std::string& name) {
  const std::string key = " " + name + "[";
  const std::size_t at = source.find(key);
  if (at == std::string::npos) return -1;
  const char* p = source.c_str() + at + key.size();
  char* end = nullptr;
  const long long n = std::strtoll(p, &end, 10);
  Check(end != p && *end == ']');
  std::size_t next = static_cast<std::size_t>(end - source.c_str()) + 1;
  while (next < source.size() &&
         (source[next] == ' ' || source[next] == '=' || source[next] == '\n')) {
    ++next;
  }
  return next < source.size() && source[next] == '"' ? n - 1 : n;
}

/// An operand of at least `count` elements: a kConst/kState array declared
/// with that many, or an arena address (sized by the plan, not checked
/// here).
inline void CheckOperandHolds(const std::string& source,
                              const std::string& operand, long long count) {
  if (operand.rfind("kConst", 0) != 0 && operand.rfind("kState", 0) != 0) {
    return;
  }
  const long long n = ArrayElements(source, operand);
  Check(n >= count);
}

/// The `//`-free occurrences of `key` in `text` (a tensor name in a
/// comment may spell it).
inline std::vector<std::size_t> CodeOccurrences(const std::string& text,
                                                const std::string& key) {
  std::vector<std::size_t> at;
  for (std::size_t i = text.find(key); i != std::string::npos;
       i = text.find(key, i + 1)) {
    const std::size_t line = text.rfind('\n', i);
    const std::size_t comment =
        text.find("//", line == std::string::npos ? 0 : line + 1);
    if (comment < i) continue;
    at.push_back(i);
  }
  return at;
}

/// LeadingIntegers' count for "up to the closing brace".
inline constexpr std::size_t kAllIntegers = static_cast<std::size_t>(-1);

/// The first `n` integers of every "NAME{a, b, ..." initializer of `text`
/// outside `//` comments (a tensor name in a comment may spell NAME{), for
/// parameters whose later fields are nested initializers (k::Shape4{...},
/// {...}); each initializer must hold at least `n`.
inline std::vector<std::vector<long long>> LeadingIntegers(
    const std::string& text, const std::string& name, std::size_t n) {
  std::vector<std::vector<long long>> all;
  const std::string key = name + "{";
  for (std::size_t at = text.find(key); at != std::string::npos;
       at = text.find(key, at + 1)) {
    const std::size_t line = text.rfind('\n', at);
    const std::size_t comment =
        text.find("//", line == std::string::npos ? 0 : line + 1);
    if (comment < at) continue;
    std::vector<long long> v;
    const char* p = text.c_str() + at + key.size();
    while (v.size() < n && *p != '}') {
      char* end = nullptr;
      v.push_back(std::strtoll(p, &end, 10));
      Check(end != p);
      p = end;
      while (*p == ',' || *p == ' ' || *p == '\n') ++p;
    }
    Check(n == kAllIntegers || v.size() == n);
    all.push_back(v);
  }
  return all;
}

/// Every integer of every "NAME{a, b, ...}" initializer of `text` (flat
/// initializers only), outside `//` comments.
inline std::vector<std::vector<long long>> Initializers(
    const std::string& text, const std::string& name) {
  return LeadingIntegers(text, name, kAllIntegers);
}

/// The values of every "const std::int32_t kMultiplierK[N] = {...}" (or
/// int8_t kShiftK) array.
inline std::vector<long long> ArrayValues(const std::string& text,
                                          const std::string& prefix) {
  std::vector<long long> v;
  for (std::size_t at = text.find(prefix); at != std::string::npos;
       at = text.find(prefix, at + 1)) {
    const char* p = text.c_str() + text.find('{', at) + 1;
    while (true) {
      while (*p == ' ' || *p == '\n' || *p == ',') ++p;
      if (*p == '}') break;
      char* end = nullptr;
      v.push_back(std::strtoll(p, &end, 10));
      Check(end != p);
      p = end;
    }
  }
  return v;
}

inline void CheckMultiplier(long long m) {
  Check(m == 0 || (m >= (1LL << 30) && m < (1LL << 31)));
}
/// A per-channel multiplier: CheckMultiplier's, or in [-2^31, -2^30].
inline void CheckChannelMultiplier(long long m) {
  Check(m == 0 || (m >= (1LL << 30) && m < (1LL << 31)) ||
        (m >= -(1LL << 31) && m <= -(1LL << 30)));
}
inline void CheckShift(long long s) { Check(s >= -31 && s <= 30); }

/// Every call of a fast kernel (dsp.hpp's output stage) takes a
/// k::ChannelQuant{kMultiplierK, ...} whose multipliers are non-negative.
inline void CheckFastMultipliers(const std::string& source) {
  for (const char* name : {"k::Conv2DFast(", "k::DepthwiseConv2DFast(",
                           "k::FullyConnectedFast("}) {
    for (std::size_t at : CodeOccurrences(source, name)) {
      const std::string key = "k::ChannelQuant{";
      const std::size_t q = source.find(key, at);
      Check(q != std::string::npos);
      const std::vector<std::string> w = Words(BracedText(source, q + 15));
      Check(!w.empty() && w[0].rfind("kMultiplier", 0) == 0);
      for (long long m :
           ArrayValues(source, "const std::int32_t " + w[0] + "[")) {
        Check(m >= 0);
      }
    }
  }
}
inline void CheckInt8(long long v) { Check(v >= -128 && v <= 127); }
inline void CheckRange(long long lo, long long hi) {
  CheckInt8(lo);
  CheckInt8(hi);
  Check(lo <= hi);
}

/// k::AddParams{in1_offset, in2_offset, out_offset, left_shift, m1, s1,
/// m2, s2, mo, so, act_min, act_max, count} (header comment).
inline void CheckAddParams(const std::vector<long long>& v) {
  Check(v.size() == 13);
  CheckInt8(-v[0]);
  CheckInt8(-v[1]);
  CheckInt8(v[2]);
  Check(v[3] >= 0 && v[3] <= 22);
  for (int k : {4, 6, 8}) CheckMultiplier(v[k]);
  for (int k : {5, 7, 9}) {
    CheckShift(v[k]);
    Check(v[k] <= 0);
  }
  CheckRange(v[10], v[11]);
  Check(v[12] >= 0 && v[12] <= INT32_MAX);
}

/// Strides `s` of one AddBroadcast input over the output dimensions `d`
/// (header comment); `count`: the output's elements. Returns the largest
/// index read plus one.
inline long long CheckBroadcastStrides(const long long d[4],
                                       const long long s[4]) {
  long long last = 0;
  for (int k = 0; k < 4; ++k) {
    Check(s[k] >= 0 && s[k] <= INT32_MAX);
    if (d[k] <= 1 || s[k] == 0) continue;
    long long row_major = 1;
    for (int e = k + 1; e < 4; ++e) {
      if (s[e] != 0) row_major *= d[e];
    }
    Check(s[k] == row_major);
    last += (d[k] - 1) * s[k];
  }
  return last + 1;
}

/// Every k::AddBroadcast(k::AddParams{...}, k::Shape4{n, h, w, c},
/// a_stride, b_stride, a, b, out) with its "a_stride[4] = {...}, b_stride[4]
/// = {...}" declaration on the line before.
inline void CheckAddBroadcasts(const std::string& source) {
  for (std::size_t at : CodeOccurrences(source, "k::AddBroadcast(")) {
    const std::size_t params = source.find("k::AddParams{", at);
    Check(params != std::string::npos);
    const std::vector<std::string> p = Words(BracedText(source, params + 12));
    Check(p.size() == 13);
    std::vector<long long> v;
    for (const std::string& w : p) v.push_back(Integer(w));
    CheckAddParams(v);
    const std::size_t shape = source.find("k::Shape4{", params);
    Check(shape != std::string::npos);
    const std::vector<std::string> dims = Words(BracedText(source, shape + 9));
    Check(dims.size() == 4);
    long long d[4];
    long long count = 1;
    for (int k = 0; k < 4; ++k) {
      d[k] = Integer(dims[static_cast<std::size_t>(k)]);
      Check(d[k] >= 0 && d[k] <= INT32_MAX);
      count *= d[k];
      Check(count <= INT32_MAX);
    }
    Check(count == v[12]);
    // The strides are declared in the block just before the call.
    const std::size_t decl = source.rfind("a_stride[4] = {", at);
    Check(decl != std::string::npos && source.find('\n', decl) < at &&
          source.find("k::", decl) == source.find("k::AddBroadcast(", decl));
    const std::size_t b_decl = source.find("b_stride[4] = {", decl);
    Check(b_decl < at);
    const std::vector<std::string> sa = Words(BracedText(source, decl + 14));
    const std::vector<std::string> sb = Words(BracedText(source, b_decl + 14));
    Check(sa.size() == 4 && sb.size() == 4);
    long long a[4], b[4];
    for (int k = 0; k < 4; ++k) {
      a[k] = Integer(sa[static_cast<std::size_t>(k)]);
      b[k] = Integer(sb[static_cast<std::size_t>(k)]);
    }
    const long long a_count = CheckBroadcastStrides(d, a);
    const long long b_count = CheckBroadcastStrides(d, b);
    Check(count == 0 || (a_count <= count && b_count <= count));
    // The operands after "a_stride, b_stride, ".
    const std::size_t args = source.find("a_stride, b_stride, ", shape);
    Check(args != std::string::npos);
    const std::size_t close = source.find(");", args);
    Check(close != std::string::npos);
    std::vector<std::string> operands;
    std::string cur;
    for (std::size_t i = args + 20; i < close; ++i) {
      const char c = source[i];
      if (c == ',') {
        operands.push_back(cur);
        cur.clear();
      } else if (c != ' ' && c != '\n') {
        cur += c;
      }
    }
    operands.push_back(cur);
    Check(operands.size() == 3);
    if (count != 0) {
      CheckOperandHolds(source, operands[0], a_count);
      CheckOperandHolds(source, operands[1], b_count);
    }
  }
}

/// Every k::SequenceLstm(k::SequenceLstmParams{...}, input, hidden, cell,
/// output) (header comment).
inline void CheckSequenceLstms(const std::string& source) {
  for (std::size_t at : CodeOccurrences(source, "k::SequenceLstm(")) {
    const std::size_t open = source.find("k::SequenceLstmParams{", at);
    Check(open != std::string::npos);
    const std::string body = BracedText(source, open + 21);
    std::vector<std::string> w = Words(body);
    // 8 leading fields, 4 gates of "k::LstmGate" and 7 words, then 10.
    Check(w.size() == 8 + 4 * 8 + 10);
    const long long batches = Integer(w[0]), steps = Integer(w[1]),
                    input_size = Integer(w[2]), units = Integer(w[3]);
    for (long long n : {batches, steps, input_size, units}) {
      Check(n >= 1 && n <= INT32_MAX);
    }
    const long long widest = input_size > units ? input_size : units;
    Check(batches * steps <= INT32_MAX / widest);
    Check(units <= INT32_MAX / widest);
    Check(w[4] == "true" || w[4] == "false");
    CheckInt8(-Integer(w[5]));
    CheckInt8(-Integer(w[6]));
    CheckInt8(Integer(w[7]));
    Check(Integer(w[6]) == -Integer(w[7]));
    for (std::size_t g = 0; g < 4; ++g) {
      const std::size_t k = 8 + 8 * g;
      Check(w[k] == "k::LstmGate");
      CheckOperandHolds(source, w[k + 1], units * input_size);
      Check(w[k + 1].rfind("kConst", 0) == 0);
      CheckOperandHolds(source, w[k + 2], units * units);
      Check(w[k + 2].rfind("kConst", 0) == 0);
      Check(w[k + 3] == "nullptr" || w[k + 3].rfind("kConst", 0) == 0);
      if (w[k + 3] != "nullptr") CheckOperandHolds(source, w[k + 3], units);
      for (std::size_t m : {k + 4, k + 6}) {
        CheckMultiplier(Integer(w[m]));
        CheckShift(Integer(w[m + 1]));
      }
    }
    const std::size_t t = 8 + 4 * 8;
    const long long tanh_m = Integer(w[t]), tanh_s = Integer(w[t + 1]);
    Check((tanh_m == 0 && tanh_s >= 0 && tanh_s <= 14) ||
          (tanh_m == 3 && tanh_s >= 1 && tanh_s <= 31));
    Check(w[t + 2] == "true" || w[t + 2] == "false");
    const long long clip = Integer(w[t + 3]);
    Check(clip >= 0 && clip <= 32767);
    for (std::size_t m : {t + 4, t + 6, t + 8}) {
      CheckMultiplier(Integer(w[m]));
      CheckShift(Integer(w[m + 1]));
    }
    Check(Integer(w[t + 9]) <= 1);  // output_hidden's shift
    // input, hidden, cell, output after the parameters.
    const std::size_t after = open + 21 + body.size() + 2;
    const std::size_t close = source.find(");", after);
    Check(close != std::string::npos);
    const std::vector<std::string> args =
        Words(source.substr(after, close - after));
    // "arena + kPlan[R].offset" spells arena, kPlan, R, offset.
    std::vector<std::string> states;
    for (const std::string& a : args) {
      if (a.rfind("kState", 0) == 0) states.push_back(a);
    }
    for (const std::string& s : states) {
      CheckOperandHolds(source, s, batches * units);
    }
  }
}

/// Every kernel parameter literal of `source` (generated STEM_model.cpp)
/// in range (header comment); aborts on the first one out of range.
inline void CheckKernelParams(const std::string& source) {
  for (long long m : ArrayValues(source, "const std::int32_t kMultiplier"))
    CheckChannelMultiplier(m);
  CheckFastMultipliers(source);
  for (long long s : ArrayValues(source, "const std::int8_t kShift"))
    CheckShift(s);
  // {-in_zp, out_zp, act_min, act_max, ...}; the input zero point negated.
  for (const char* name : {"k::ConvParams", "k::FullyConnectedParams"}) {
    for (const auto& v : Initializers(source, name)) {
      Check(v.size() >= 4);
      CheckInt8(-v[0]);
      CheckInt8(v[1]);
      CheckRange(v[2], v[3]);
    }
  }
  // k::ConvParams: nine fields; k::DilatedConvParams: those nine, then the
  // two dilation factors. Strides and factors >= 1, each factor at most
  // 2^16 (tflite::CheckConv bounds the window's span so).
  for (const auto& v : Initializers(source, "k::ConvParams")) {
    Check(v.size() == 9);
    Check(v[4] >= 1 && v[5] >= 1);
  }
  const std::string dilated = "k::DilatedConvParams{";  // {{nine}, dh, dw}
  for (std::size_t at = source.find(dilated); at != std::string::npos;
       at = source.find(dilated, at + 1)) {
    std::vector<long long> v;
    for (const std::string& w :
         Words(BracedText(source, at + dilated.size() - 1))) {
      char* end = nullptr;
      v.push_back(std::strtoll(w.c_str(), &end, 10));
      Check(*end == '\0');
    }
    Check(v.size() == 11);
    CheckInt8(-v[0]);
    CheckInt8(v[1]);
    CheckRange(v[2], v[3]);
    Check(v[4] >= 1 && v[5] >= 1);
    Check(v[9] >= 1 && v[9] <= 65536 && v[10] >= 1 && v[10] <= 65536);
  }
  for (const auto& v : Initializers(source, "k::PoolParams")) {
    Check(v.size() == 8);
    CheckRange(v[6], v[7]);
  }
  for (const auto& v : Initializers(source, "k::AddParams")) {
    CheckAddParams(v);
  }
  CheckAddBroadcasts(source);
  CheckSequenceLstms(source);
  for (const auto& v : Initializers(source, "k::RequantizeParams")) {
    Check(v.size() == 5);
    Check(-v[0] >= -32768 && -v[0] <= 32767);  // int8 or int16 input
    Check(v[1] >= INT32_MIN && v[1] <= INT32_MAX);
    CheckMultiplier(v[2]);
    CheckShift(v[3]);
  }
  for (const auto& v : Initializers(source, "k::SvdfParams")) {
    Check(v.size() == 14);
    CheckInt8(-v[0]);
    CheckInt8(v[1]);  // state zero point: 0 (int16 state) or an int8 value
    CheckInt8(v[2]);
    CheckRange(v[3], v[4]);
    CheckMultiplier(v[10]);
    CheckShift(v[11]);
    CheckMultiplier(v[12]);
    CheckShift(v[13]);
  }
  for (const auto& v : Initializers(source, "k::HardSwishParams")) {
    Check(v.size() == 7);
    CheckInt8(v[0]);
    CheckInt8(v[1]);
    // Q0.15 multipliers (a Q0.31 one in [2^30, 2^31) rounded), the output
    // exponent never positive (TFLM's HardSwishPrepare).
    Check(v[2] >= (1 << 14) && v[2] <= 32767);
    Check(v[3] >= -31 && v[3] <= 0);
    Check(v[4] >= (1 << 14) && v[4] <= 32767);
    CheckShift(v[5]);
  }
  // DIV and BATCH_MATMUL: {zp_a, zp_b, zp_out, multiplier, shift, ...};
  // DIV's shift at most 23 (div.hpp), then its clamp.
  for (const auto& v : LeadingIntegers(source, "k::DivParams", 7)) {
    for (int k : {0, 1, 2}) CheckInt8(v[k]);
    CheckMultiplier(v[3]);
    Check(v[4] >= -31 && v[4] <= 23);
    CheckRange(v[5], v[6]);
  }
  for (const auto& v : LeadingIntegers(source, "k::BatchMatMulParams", 5)) {
    for (int k : {0, 1, 2}) CheckInt8(v[k]);
    CheckMultiplier(v[3]);
    CheckShift(v[4]);
  }
  for (const auto& v : Initializers(source, "k::SoftmaxParams")) {
    Check(v.size() == 5);
    CheckMultiplier(v[0]);
    Check(v[1] >= 1 && v[1] <= 31);  // a left shift: real > 1
    Check(v[2] <= 0);
  }
}

}  // namespace arenaplan::fuzz

#endif  // ARENAPLAN_TESTS_FUZZ_KERNEL_PARAMS_CHECK_HPP_
