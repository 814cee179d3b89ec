// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/tflm.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include "codegen/errors.hpp"

namespace arenaplan::tflite {
namespace {

// ---- little-endian reading and writing of flatbuffer words ----

std::uint32_t LoadU32(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) |
         static_cast<std::uint32_t>(b[at + 1]) << 8 |
         static_cast<std::uint32_t>(b[at + 2]) << 16 |
         static_cast<std::uint32_t>(b[at + 3]) << 24;
}
std::uint16_t LoadU16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] | b[at + 1] << 8);
}

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

GreedyPlacement TflmGreedyPlace(std::span<const GreedyBuffer> buffers) {
  const std::size_t n = buffers.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Fixed (offline) buffers first, in input order; then by size, largest
  // first, equal sizes in input order.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     const bool fa = buffers[a].fixed_offset.has_value();
                     const bool fb = buffers[b].fixed_offset.has_value();
                     if (fa != fb) return fa;
                     if (fa) return false;
                     return buffers[a].size > buffers[b].size;
                   });
  GreedyPlacement out;
  out.offsets.assign(n, 0);
  std::vector<std::size_t> placed;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> busy;  // offset, end
  for (std::size_t i : order) {
    const GreedyBuffer& cur = buffers[i];
    std::uint64_t offset = 0;
    if (cur.fixed_offset) {
      offset = *cur.fixed_offset;
    } else {
      busy.clear();
      for (std::size_t j : placed) {
        const GreedyBuffer& o = buffers[j];
        if (o.first_op <= cur.last_op && cur.first_op <= o.last_op) {
          busy.emplace_back(out.offsets[j], out.offsets[j] + o.size);
        }
      }
      std::sort(busy.begin(), busy.end());
      // First fit: the lowest offset at which `cur` touches no busy range.
      for (const auto& [lo, hi] : busy) {
        if (offset + cur.size <= lo) break;
        offset = std::max(offset, hi);
      }
    }
    out.offsets[i] = offset;
    out.arena_bytes = std::max(out.arena_bytes, offset + cur.size);
    placed.push_back(i);
  }
  return out;
}

std::vector<std::int32_t> OfflinePlanWords(const TfliteProblem& problem,
                                           const PlanResult& plan,
                                           std::size_t subgraph_count) {
  const std::size_t n = problem.total_tensor_count;
  if (n >
      static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) - 3) {
    throw InputError(problem.problem.source + ": too many tensors");
  }
  std::vector<std::int32_t> words(3 + n, -1);
  words[0] = 0;
  words[1] = static_cast<std::int32_t>(subgraph_count);
  words[2] = static_cast<std::int32_t>(n);
  for (std::size_t r = 0; r < problem.record_tensor.size(); ++r) {
    const std::int32_t t = problem.record_tensor[r];
    if (t < 0 || plan.problem.records[r].size == 0) continue;
    if (plan.offsets[r] >
        static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
      throw InputError(problem.problem.source + ": tensor " +
                       std::to_string(t) +
                       ": offset does not fit TFLM's int32 plan");
    }
    words[3 + static_cast<std::size_t>(t)] =
        static_cast<std::int32_t>(plan.offsets[r]);
  }
  return words;
}

std::optional<std::vector<std::int32_t>> ReadOfflinePlan(const Model& model) {
  for (const MetadataEntry& e : model.metadata) {
    if (e.name != kOfflinePlanName) continue;
    const std::vector<std::uint8_t>& data = model.buffers[e.buffer].data;
    std::vector<std::int32_t> words(data.size() / 4);
    for (std::size_t i = 0; i < words.size(); ++i) {
      words[i] = static_cast<std::int32_t>(LoadU32(data, 4 * i));
    }
    return words;
  }
  return std::nullopt;
}

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

std::string ShimHeader(const TfliteProblem& problem, const PlanResult& plan,
                       std::size_t subgraph_count,
                       const std::string& guard_source) {
  const std::string& src = problem.problem.source;
  if (subgraph_count > 1) {
    throw InputError(src + ": --shim: the model has " +
                     std::to_string(subgraph_count) +
                     " subgraphs; TFLM would ask for buffers of subgraphs "
                     "arenaplan does not plan");
  }
  for (std::size_t t = 0; t < problem.tensors.size(); ++t) {
    if (problem.tensors[t].role == TensorRole::kUnused) {
      throw InputError(src + ": --shim: tensor " + std::to_string(t) +
                       " is used by no operator; TFLM would still ask for a "
                       "buffer for it");
    }
  }
  std::string entries;
  std::size_t count = 0;
  for (std::size_t r = 0; r < problem.record_tensor.size(); ++r) {
    if (plan.problem.records[r].size == 0) continue;
    entries += "    {" + std::to_string(plan.offsets[r]) + "},  // " +
               (problem.record_tensor[r] >= 0
                    ? "tensor " + std::to_string(problem.record_tensor[r])
                    : plan.problem.ids[r]) +
               ", " + std::to_string(plan.problem.records[r].size) + " bytes\n";
    ++count;
  }
  std::string h;
  h += "// Generated by arenaplan from " + guard_source + ". Do not edit.\n";
  h += "//\n";
  h += "// Buffer plan for TensorFlow Lite Micro's\n";
  h += "// tflite::micro::NonPersistentMemoryPlannerShim: one offset per\n";
  h += "// buffer TFLM asks the planner for, in its order (the non-constant,\n";
  h += "// non-variable tensors of subgraph 0 by index, then the scratch\n";
  h +=
      "// buffers in the order kernels request them). Offsets are bytes from\n";
  h += "// the start of TFLM's non-persistent (head) section.\n";
  h += "#pragma once\n\n#include <cstddef>\n#include <cstdint>\n\n";
  h += "#include "
       "\"tensorflow/lite/micro/memory_planner/memory_plan_struct.h\"\n\n";
  h += "namespace arenaplan_tflm {\n\n";
  h += "/// Bytes the planned buffers need at the start of the arena.\n";
  h += "inline constexpr std::size_t kNonPersistentBytes = " +
       std::to_string(plan.arena_bytes) + ";\n";
  h += "inline constexpr std::int32_t kBufferCount = " + std::to_string(count) +
       ";\n\n";
  h += "/// Laid out like tflite::BufferPlan (whose entry array is declared\n";
  h += "/// with length 1): the count, then the entries.\n";
  h += "struct BufferPlanStorage {\n";
  h += "  std::int32_t buffer_count;\n";
  h += "  tflite::BufferDescriptor entries[kBufferCount > 0 ? kBufferCount "
       ": 1];\n";
  h += "};\n\n";
  h += "inline constexpr BufferPlanStorage kBufferPlanStorage = {\n";
  h +=
      "  kBufferCount,\n  {\n" + (count ? entries : "    {0},\n") + "  }};\n\n";
  h += "/// Pass to tflite::micro::NonPersistentMemoryPlannerShim's "
       "constructor.\n";
  h += "inline const tflite::BufferPlan* BufferPlan() {\n";
  h += "  return reinterpret_cast<const "
       "tflite::BufferPlan*>(&kBufferPlanStorage);\n";
  h += "}\n\n}  // namespace arenaplan_tflm\n";
  return h;
}

}  // namespace arenaplan::tflite
