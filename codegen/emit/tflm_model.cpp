// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/tflm_model.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/tflite/bytes.hpp"
#include "codegen/tflm/offline_plan.hpp"

namespace arenaplan {
namespace {

using tflite::LoadU16;
using tflite::LoadU32;
using tflite::Model;
using tflite::Subgraph;
using tflite::Tensor;
using tflm::kOfflinePlanName;

/// The new bytes placed before the original model. Positions are absolute
/// in the output; the original starts at `base` (set once the prefix size
/// is known, which is why references into it are patched at the end).
class Prefix {
 public:
  std::size_t size() const { return bytes_.size(); }
  void Align(std::size_t a) {
    while (bytes_.size() % a != 0) bytes_.push_back(0);
  }
  std::size_t U16(std::uint16_t v) {
    const std::size_t at = bytes_.size();
    bytes_.push_back(static_cast<std::uint8_t>(v));
    bytes_.push_back(static_cast<std::uint8_t>(v >> 8));
    return at;
  }
  std::size_t U32(std::uint32_t v) {
    const std::size_t at = bytes_.size();
    for (int i = 0; i < 4; ++i) {
      bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    return at;
  }
  void PutU32(std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) {
      bytes_[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
    }
  }
  void Bytes(std::span<const std::uint8_t> b) {
    bytes_.insert(bytes_.end(), b.begin(), b.end());
  }
  /// A uoffset slot at `at` that must point to absolute position `target`
  /// in the new prefix (`into_original` false) or to position `target` of
  /// the original bytes (true).
  void Ref(std::size_t at, std::size_t target, bool into_original) {
    refs_.push_back({at, target, into_original});
  }
  /// Pads to a multiple of 16, resolves every reference, and returns the
  /// prefix followed by the original bytes.
  std::vector<std::uint8_t> Finish(std::span<const std::uint8_t> original,
                                   const std::string& source) {
    Align(16);
    const std::size_t base = bytes_.size();
    if (original.size() > (std::size_t{1} << 31) - 1 - base) {
      throw InputError(source + ": output would exceed 2 GiB");
    }
    for (const auto& r : refs_) {
      const std::size_t target = r.into_original ? base + r.target : r.target;
      // uoffsets point forward: every target lies after its slot.
      if (target <= r.at) throw InternalError("backward flatbuffer offset");
      PutU32(r.at, static_cast<std::uint32_t>(target - r.at));
    }
    std::vector<std::uint8_t> out = std::move(bytes_);
    out.insert(out.end(), original.begin(), original.end());
    return out;
  }

 private:
  struct PendingRef {
    std::size_t at;
    std::size_t target;
    bool into_original;
  };
  std::vector<std::uint8_t> bytes_;
  std::vector<PendingRef> refs_;
};

/// Reads the root table of the original model: the absolute position every
/// present field of Model points to (or its scalar value).
struct OriginalModel {
  static constexpr int kFields = 8;  // version .. signature_defs
  bool present[kFields] = {};
  std::uint32_t version = 0;
  std::size_t target[kFields] = {};   // for offset fields 1..7
  std::vector<std::size_t> buffers;   // Buffer table positions
  std::vector<std::size_t> metadata;  // Metadata table positions
  std::vector<std::string> metadata_names;
  std::vector<std::uint32_t> metadata_buffers;
};

OriginalModel ParseRoot(std::span<const std::uint8_t> b,
                        const std::string& source) {
  // The input passed the verifier, so every position read here is inside
  // the buffer and aligned; the checks below guard against misuse.
  OriginalModel m;
  auto fail = [&](const char* what) {
    throw InputError(source + ": model: " + what);
  };
  if (b.size() < 8) fail("too short");
  const std::size_t root = LoadU32(b, 0);
  const auto soff = static_cast<std::int32_t>(LoadU32(b, root));
  const auto vt =
      static_cast<std::size_t>(static_cast<std::int64_t>(root) - soff);
  const std::uint16_t vsize = LoadU16(b, vt);
  const int fields_in_file = (vsize - 4) / 2;
  for (int f = 0; f < fields_in_file; ++f) {
    const std::uint16_t voff = LoadU16(b, vt + 4 + 2 * f);
    if (voff == 0) continue;
    if (f >= OriginalModel::kFields) {
      fail("has Model fields newer than this reader; refusing to drop them");
    }
    const std::size_t at = root + voff;
    m.present[f] = true;
    if (f == 0) {
      m.version = LoadU32(b, at);
    } else {
      m.target[f] = at + LoadU32(b, at);
    }
  }
  auto table_vector = [&](int f, std::vector<std::size_t>& out) {
    if (!m.present[f]) return;
    const std::size_t v = m.target[f];
    const std::uint32_t n = LoadU32(b, v);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t at = v + 4 + 4 * std::size_t{i};
      out.push_back(at + LoadU32(b, at));
    }
  };
  table_vector(4, m.buffers);
  table_vector(6, m.metadata);
  for (std::size_t t : m.metadata) {
    // Metadata { name:string (id 0); buffer:uint (id 1) }.
    const std::size_t mvt =
        static_cast<std::size_t>(static_cast<std::int64_t>(t) -
                                 static_cast<std::int32_t>(LoadU32(b, t)));
    const std::uint16_t mvsize = LoadU16(b, mvt);
    std::string name;
    std::uint32_t buffer = 0;
    if (mvsize >= 6 && LoadU16(b, mvt + 4) != 0) {
      const std::size_t at = t + LoadU16(b, mvt + 4);
      const std::size_t s = at + LoadU32(b, at);
      const std::uint32_t len = LoadU32(b, s);
      name.assign(reinterpret_cast<const char*>(b.data() + s + 4), len);
    }
    if (mvsize >= 8 && LoadU16(b, mvt + 6) != 0) {
      buffer = LoadU32(b, t + LoadU16(b, mvt + 6));
    }
    m.metadata_names.push_back(std::move(name));
    m.metadata_buffers.push_back(buffer);
  }
  return m;
}

}  // namespace

std::vector<std::uint8_t> WithOfflinePlan(
    std::span<const std::uint8_t> original, const Model& model,
    std::span<const std::int32_t> words) {
  const std::string& source = model.source;
  const OriginalModel m = ParseRoot(original, source);
  if (m.buffers.empty()) {
    throw InputError(source +
                     ": model: no buffers (not even the empty "
                     "buffer 0 every TFLite model has)");
  }

  // Which metadata entries survive, and which buffer slot the plan takes:
  // an existing plan's buffer is reused when nothing else refers to it
  // (tensors never do in files TFLM accepts, but a file could), else the
  // plan goes into a new buffer appended at the end.
  std::vector<std::size_t> kept_metadata;
  constexpr std::int64_t kNone = -1;
  std::int64_t reuse = kNone;
  for (std::size_t i = 0; i < m.metadata.size(); ++i) {
    if (m.metadata_names[i] == kOfflinePlanName) {
      if (reuse == kNone) reuse = m.metadata_buffers[i];
    } else {
      kept_metadata.push_back(i);
    }
  }
  for (std::size_t i : kept_metadata) {
    if (m.metadata_buffers[i] == reuse) reuse = kNone;
  }
  for (const Subgraph& g : model.subgraphs) {
    for (const Tensor& t : g.tensors) {
      if (t.buffer == reuse) reuse = kNone;
    }
  }
  if (reuse == 0) reuse = kNone;  // the empty sentinel buffer
  const std::uint32_t plan_buffer =
      reuse != kNone ? static_cast<std::uint32_t>(reuse)
                     : static_cast<std::uint32_t>(m.buffers.size());
  const std::size_t buffer_count =
      std::max<std::size_t>(m.buffers.size(), std::size_t{plan_buffer} + 1);

  Prefix p;
  p.U32(0);           // root offset, patched below
  p.U32(0x334C4654);  // file identifier "TFL3", little-endian
  // Model vtable: 8 fields, each 4 bytes in the table after the soffset.
  const std::size_t vt = p.size();
  p.U16(4 + 2 * OriginalModel::kFields);
  p.U16(4 + 4 * OriginalModel::kFields);
  bool want[OriginalModel::kFields];
  for (int f = 0; f < OriginalModel::kFields; ++f) {
    want[f] = m.present[f] || f == 0 || f == 4 || f == 6;
    p.U16(want[f] ? static_cast<std::uint16_t>(4 + 4 * f) : 0);
  }
  p.Align(4);
  const std::size_t table = p.size();
  p.PutU32(0, static_cast<std::uint32_t>(table));
  p.U32(static_cast<std::uint32_t>(table - vt));  // soffset: table - vtable
  std::size_t slot[OriginalModel::kFields];
  for (int f = 0; f < OriginalModel::kFields; ++f) {
    slot[f] = p.U32(f == 0 ? m.version : 0);
    if (f != 0 && f != 4 && f != 6 && m.present[f]) {
      p.Ref(slot[f], m.target[f], true);
    }
  }

  // buffers: the original Buffer tables, the plan's in its slot.
  const std::size_t buffers_vec =
      p.U32(static_cast<std::uint32_t>(buffer_count));
  p.Ref(slot[4], buffers_vec, false);
  std::vector<std::size_t> buffer_slots;
  for (std::size_t i = 0; i < buffer_count; ++i) {
    buffer_slots.push_back(p.U32(0));
    if (i != plan_buffer) p.Ref(buffer_slots.back(), m.buffers[i], true);
  }
  // metadata: the kept entries, then the plan's.
  const std::size_t meta_vec =
      p.U32(static_cast<std::uint32_t>(kept_metadata.size() + 1));
  p.Ref(slot[6], meta_vec, false);
  for (std::size_t i : kept_metadata) {
    p.Ref(p.U32(0), m.metadata[i], true);
  }
  const std::size_t plan_meta_slot = p.U32(0);

  // Buffer table of the plan: { data:[ubyte] (id 0) }.
  const std::size_t buf_vt = p.size();
  p.U16(6);
  p.U16(8);
  p.U16(4);
  p.Align(4);
  const std::size_t buf_table = p.size();
  p.U32(static_cast<std::uint32_t>(buf_table - buf_vt));
  const std::size_t data_slot = p.U32(0);
  p.Ref(buffer_slots[plan_buffer], buf_table, false);

  // Metadata table: { name:string (id 0), buffer:uint (id 1) }.
  const std::size_t meta_vt = p.size();
  p.U16(8);
  p.U16(12);
  p.U16(4);
  p.U16(8);
  const std::size_t meta_table = p.size();  // 4-aligned: vtables are 8 bytes
  p.U32(static_cast<std::uint32_t>(meta_table - meta_vt));
  const std::size_t name_slot = p.U32(0);
  p.U32(plan_buffer);
  p.Ref(plan_meta_slot, meta_table, false);

  const std::size_t name_at = p.U32(sizeof kOfflinePlanName - 1);
  p.Bytes(std::span(reinterpret_cast<const std::uint8_t*>(kOfflinePlanName),
                    sizeof kOfflinePlanName));  // with its NUL
  p.Ref(name_slot, name_at, false);

  // The plan's words, 16-byte aligned like every TFLite buffer.
  while ((p.size() + 4) % 16 != 0) p.U32(0);
  const std::size_t data_at =
      p.U32(static_cast<std::uint32_t>(4 * words.size()));
  for (std::int32_t w : words) p.U32(static_cast<std::uint32_t>(w));
  p.Ref(data_slot, data_at, false);
  return p.Finish(original, source);
}

}  // namespace arenaplan
