// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/trace/check.hpp"

#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace arenaplan::trace {
namespace {

/// What a byte holds: byte (address - origin) of buffer `buffer`.
struct Value {
  std::uint32_t buffer = 0;
  std::uint64_t origin = 0;  ///< Arena byte of the buffer's byte 0.
  bool operator==(const Value&) const = default;
};

/// The first byte of a range that does not hold the expected value, and
/// what it holds (nullopt: never written).
struct Mismatch {
  std::uint64_t address = 0;
  std::optional<Value> held;
};

/// The values of one region's bytes: disjoint intervals [begin, end) ->
/// value, keyed by begin; bytes in no interval were never written.
class Memory {
 public:
  void Assign(std::uint64_t begin, std::uint64_t end, Value v) {
    if (begin >= end) return;
    Split(begin);
    Split(end);
    map_.erase(map_.lower_bound(begin), map_.lower_bound(end));
    map_.emplace(begin, Interval{end, v});
  }

  /// The first byte of [begin, end) not holding `v`, or nullopt.
  [[nodiscard]] std::optional<Mismatch> Find(std::uint64_t begin,
                                             std::uint64_t end, Value v) const {
    std::uint64_t at = begin;
    auto it = map_.upper_bound(at);
    if (it != map_.begin()) {
      auto prev = std::prev(it);
      if (prev->second.end > at) it = prev;
    }
    while (at < end) {
      if (it == map_.end() || it->first > at) return Mismatch{at, {}};
      if (!(it->second.value == v)) return Mismatch{at, it->second.value};
      at = it->second.end;
      ++it;
    }
    return std::nullopt;
  }

 private:
  struct Interval {
    std::uint64_t end;
    Value value;
  };

  /// Cuts the interval holding `x` strictly inside it at `x`.
  void Split(std::uint64_t x) {
    auto it = map_.upper_bound(x);
    if (it == map_.begin()) return;
    --it;
    if (it->first < x && it->second.end > x) {
      map_.emplace(x, Interval{it->second.end, it->second.value});
      it->second.end = x;
    }
  }

  std::map<std::uint64_t, Interval> map_;
};

class Checker {
 public:
  explicit Checker(const Schedule& s) : s_(s) {
    std::uint32_t regions = 1;
    for (const Buffer& b : s.buffers) {
      if (b.region + 1 > regions) regions = b.region + 1;
    }
    memory_.resize(regions);
  }

  TraceCheck Run() {
    for (const Range& r : s_.initial) {
      if (!Valid(r)) return Malformed("a graph input's range", r);
      Write(r);
    }
    for (const Step& step : s_.steps) {
      if (TraceCheck c = CheckStep(step); c.result != TraceResult::kOk) {
        return c;
      }
    }
    for (const Range& r : s_.final) {
      if (!Valid(r)) return Malformed("a graph output's range", r);
      if (const auto m = Find(r)) {
        return {TraceResult::kOutputLost,
                "graph output " + Where(r) + " does not hold its value when " +
                    "Invoke() returns: " + Held(*m, r)};
      }
    }
    return {};
  }

 private:
  [[nodiscard]] bool Valid(const Range& r) const {
    return r.buffer < s_.buffers.size() && r.begin <= r.end &&
           r.end <= s_.buffers[r.buffer].size;
  }

  [[nodiscard]] const Buffer& Of(const Range& r) const {
    return s_.buffers[r.buffer];
  }
  [[nodiscard]] std::uint64_t Begin(const Range& r) const {
    return Of(r).offset + r.begin;
  }
  [[nodiscard]] std::uint64_t End(const Range& r) const {
    return Of(r).offset + r.end;
  }

  void Write(const Range& r) {
    memory_[Of(r).region].Assign(Begin(r), End(r),
                                 Value{r.buffer, Of(r).offset});
  }

  [[nodiscard]] std::optional<Mismatch> Find(const Range& r) const {
    return memory_[Of(r).region].Find(Begin(r), End(r),
                                      Value{r.buffer, Of(r).offset});
  }

  /// "tensor T bytes [b, e) in BUFFER (region R) arena bytes [x, y)".
  [[nodiscard]] std::string Where(const Range& r) const {
    std::string t = r.tensor >= 0 ? "tensor " + std::to_string(r.tensor) + " "
                                  : std::string();
    std::string region =
        memory_.size() > 1 ? " of region " + std::to_string(Of(r).region) : "";
    return t + "bytes [" + std::to_string(r.begin) + ", " +
           std::to_string(r.end) + ") of " + Of(r).name + " (arena bytes [" +
           std::to_string(Begin(r)) + ", " + std::to_string(End(r)) + ")" +
           region + ")";
  }

  /// What the first wrong byte `m` of `r` holds, against what it should.
  [[nodiscard]] std::string Held(const Mismatch& m, const Range& r) const {
    const std::uint64_t want = m.address - Of(r).offset;
    std::string text = "arena byte " + std::to_string(m.address) + " holds ";
    if (!m.held) {
      text += "nothing written";
    } else {
      text += "byte " + std::to_string(m.address - m.held->origin) + " of " +
              s_.buffers[m.held->buffer].name;
      if (m.held->buffer == r.buffer) {
        text += " placed at " + std::to_string(m.held->origin);
      }
    }
    return text + ", not byte " + std::to_string(want) + " of " + Of(r).name;
  }

  [[nodiscard]] TraceCheck Malformed(const std::string& what,
                                     const Range& r) const {
    return {TraceResult::kMalformed,
            what + " (buffer " + std::to_string(r.buffer) + ", bytes [" +
                std::to_string(r.begin) + ", " + std::to_string(r.end) +
                ")) is outside the schedule's buffers"};
  }

  [[nodiscard]] static std::string OpName(const Step& step) {
    return "operator " + std::to_string(step.op) + " (" + step.name + ")";
  }

  [[nodiscard]] bool Intersect(const Range& a, const Range& b) const {
    return Of(a).region == Of(b).region && Begin(a) < End(b) &&
           Begin(b) < End(a) && a.begin < a.end && b.begin < b.end;
  }

  /// The stated overlap between accesses w and a of `step`, or nullptr.
  [[nodiscard]] static const StatedOverlap* Stated(const Step& step,
                                                   std::size_t w,
                                                   std::size_t a) {
    for (const StatedOverlap& o : step.overlaps) {
      if ((o.below == w && o.above == a) || (o.below == a && o.above == w)) {
        return &o;
      }
    }
    return nullptr;
  }

  /// Every pair of a write and another access of `step` sharing bytes.
  [[nodiscard]] TraceCheck CheckOverlaps(const Step& step) const {
    const auto& acc = step.accesses;
    for (std::size_t w = 0; w < acc.size(); ++w) {
      if (acc[w].kind != Access::Kind::kWrite) continue;
      for (std::size_t a = 0; a < acc.size(); ++a) {
        if (a == w || (acc[a].kind == Access::Kind::kWrite && a < w) ||
            !Intersect(acc[w].range, acc[a].range)) {
          continue;
        }
        const std::string pair =
            OpName(step) + ": its write of " + Where(acc[w].range) +
            " shares bytes with " +
            (acc[a].kind == Access::Kind::kRead ? "its read of "
                                                : "its write of ") +
            Where(acc[a].range);
        const StatedOverlap* o = Stated(step, w, a);
        if (o == nullptr) {
          return {TraceResult::kOverlapWithoutContract,
                  pair + ", and its kernel states no overlap between them"};
        }
        const Range& below = acc[o->below].range;
        const Range& above = acc[o->above].range;
        const bool ok =
            o->relation == OverlapRelation::kAlias
                ? Begin(below) == Begin(above) && End(below) == End(above)
                : Begin(below) + o->distance <= Begin(above);
        if (!ok) {
          return {TraceResult::kOverlapTooClose,
                  pair + (o->relation == OverlapRelation::kAlias
                              ? ", but they are not the same bytes (its "
                                "kernel allows only an alias)"
                              : ", starting at arena byte " +
                                    std::to_string(Begin(below)) +
                                    " where its kernel needs " +
                                    std::to_string(Begin(below)) + " + " +
                                    std::to_string(o->distance) +
                                    " <= " + std::to_string(Begin(above)))};
        }
      }
    }
    return {};
  }

  TraceCheck CheckStep(const Step& step) {
    for (const Access& a : step.accesses) {
      if (!Valid(a.range)) {
        return Malformed(OpName(step) + ": an access", a.range);
      }
    }
    for (const StatedOverlap& o : step.overlaps) {
      if (o.below >= step.accesses.size() || o.above >= step.accesses.size() ||
          step.accesses[o.below].kind != Access::Kind::kWrite) {
        return {TraceResult::kMalformed,
                OpName(step) + ": a stated overlap names no write access"};
      }
    }
    for (const Access& a : step.accesses) {
      if (a.kind != Access::Kind::kRead) continue;
      if (const auto m = Find(a.range)) {
        return {
            m->held ? TraceResult::kReadClobbered : TraceResult::kReadUnwritten,
            OpName(step) + " reads " + Where(a.range) + ": " +
                Held(*m, a.range)};
      }
    }
    if (TraceCheck c = CheckOverlaps(step); c.result != TraceResult::kOk) {
      return c;
    }
    for (const Access& a : step.accesses) {
      if (a.kind == Access::Kind::kWrite) Write(a.range);
    }
    return {};
  }

  const Schedule& s_;
  std::vector<Memory> memory_;  ///< Per region.
};

}  // namespace

const char* TraceResultName(TraceResult r) {
  switch (r) {
    case TraceResult::kOk:
      return "ok";
    case TraceResult::kMalformed:
      return "malformed";
    case TraceResult::kReadUnwritten:
      return "read_unwritten";
    case TraceResult::kReadClobbered:
      return "read_clobbered";
    case TraceResult::kOverlapWithoutContract:
      return "overlap_without_contract";
    case TraceResult::kOverlapTooClose:
      return "overlap_too_close";
    case TraceResult::kOutputLost:
      return "output_lost";
  }
  return "?";
}

TraceCheck CheckSchedule(const Schedule& schedule) {
  return Checker(schedule).Run();
}

}  // namespace arenaplan::trace
