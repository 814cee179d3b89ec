// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/stack/bound.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/base/saturating.hpp"

namespace arenaplan::stack {
namespace {

/// Call paths deeper than this are refused (the search recurses once per
/// call on the path; real call graphs are a few dozen deep).
constexpr std::size_t kMaxDepth = 1000;

/// The title without the "SOURCE:" prefix of a local function.
std::string_view BareTitle(std::string_view title) {
  const std::size_t colon = title.rfind(':');
  return colon == std::string_view::npos ? title : title.substr(colon + 1);
}

/// The stated bound in `map` for function `f` (by bare title, then by
/// qualified name), or nullptr.
const std::uint64_t* Stated(
    const std::map<std::string, std::uint64_t, std::less<>>& map,
    const Function& f) {
  auto it = map.find(BareTitle(f.title));
  if (it == map.end()) it = map.find(QualifiedName(f.declaration));
  return it == map.end() ? nullptr : &it->second;
}

std::string NameOf(const Function& f) {
  const std::string name = QualifiedName(f.declaration);
  return name.empty() ? f.title : name;
}

class Search {
 public:
  Search(const CallGraph& graph, const BoundOptions& options)
      : graph_(graph), options_(options) {
    for (const auto& [name, depth] : options.recursion) {
      limits_.push_back(depth);
    }
  }

  /// The worst stack of `f` entered on a path that holds `active[r]`
  /// activations of the r-th stated recursive function (f not counted);
  /// its path in best_. nullopt when entering f would exceed a stated
  /// depth: a path the statement rules out.
  std::optional<std::uint64_t> Visit(const Function& f,
                                     const std::string& called_at,
                                     std::vector<std::uint64_t> active) {
    if (const std::size_t r = RecursionIndex(f); r < limits_.size()) {
      if (active[r] >= limits_[r]) return std::nullopt;
      ++active[r];
    }
    std::string key = f.title;
    for (const std::uint64_t a : active) {
      key += '#';
      key += std::to_string(a);
    }
    if (const auto done = best_.find(key); done != best_.end()) {
      last_key_ = key;
      return done->second.bytes;
    }
    if (on_path_.contains(key)) {
      std::string cycle;
      bool in = false;
      for (const auto& [k, title] : path_) {
        in = in || k == key;
        if (in) cycle += NameOf(graph_.functions.at(title)) + " -> ";
      }
      throw InputError(called_at + ": recursion: " + cycle + NameOf(f) +
                       " (a recursive call has no stack bound; state the "
                       "most activations at once with --recursion NAME=N)");
    }
    if (path_.size() >= kMaxDepth) {
      throw InputError(called_at + ": a call path deeper than " +
                       std::to_string(kMaxDepth) + " functions");
    }
    StackBound mine;
    if (!f.defined) {
      const std::uint64_t* stated = Stated(options_.external, f);
      if (stated == nullptr) {
        throw InputError(called_at + ": calls " + NameOf(f) +
                         ", which no call graph given defines (add its "
                         "object's .ci file, or state its stack with "
                         "--external " +
                         std::string(BareTitle(f.title)) + "=BYTES)");
      }
      mine.bytes = *stated;
      mine.path.push_back({NameOf(f), *stated, true});
      last_key_ = key;
      return best_.emplace(key, mine).first->second.bytes;
    }
    if (f.kind == FrameKind::kDynamic) {
      throw InputError(f.where + ": " + NameOf(f) +
                       ": its frame is dynamic without a bound "
                       "(-fstack-usage: \"dynamic\"), so no stack bound "
                       "exists");
    }
    on_path_.insert(key);
    path_.emplace_back(key, f.title);
    std::uint64_t deepest = 0;
    std::vector<PathStep> deepest_path;
    for (const Call& call : f.calls) {
      std::uint64_t bytes = 0;
      std::vector<PathStep> tail;
      if (call.callee == kIndirectCall) {
        const std::uint64_t* stated = Stated(options_.indirect, f);
        if (stated == nullptr) {
          throw InputError(call.where + ": " + NameOf(f) +
                           " makes an indirect call, whose stack is unknown "
                           "(state a bound with --indirect " +
                           std::string(BareTitle(f.title)) + "=BYTES)");
        }
        bytes = *stated;
        tail.push_back({"(indirect call)", bytes, true});
      } else {
        const Function& callee = graph_.functions.at(call.callee);
        const std::optional<std::uint64_t> got =
            Visit(callee, call.where, active);
        if (!got) continue;
        bytes = *got;
        tail = best_.at(last_key_).path;
      }
      if (bytes > deepest || deepest_path.empty()) {
        deepest = bytes;
        deepest_path = std::move(tail);
      }
    }
    path_.pop_back();
    on_path_.erase(key);
    mine.bytes = SaturatingAdd(f.frame_bytes, deepest);
    mine.path.push_back({NameOf(f), f.frame_bytes, false});
    mine.path.insert(mine.path.end(), deepest_path.begin(), deepest_path.end());
    last_key_ = key;
    return best_.emplace(key, std::move(mine)).first->second.bytes;
  }

  [[nodiscard]] const StackBound& Result() const { return best_.at(last_key_); }

 private:
  /// The index of f among options.recursion, or their count.
  std::size_t RecursionIndex(const Function& f) const {
    std::size_t r = 0;
    for (const auto& [name, depth] : options_.recursion) {
      if (name == BareTitle(f.title) || name == QualifiedName(f.declaration)) {
        return r;
      }
      ++r;
    }
    return r;
  }

  const CallGraph& graph_;
  const BoundOptions& options_;
  std::vector<std::uint64_t> limits_;       ///< options.recursion's depths
  std::map<std::string, StackBound> best_;  ///< by title and activations
  std::set<std::string> on_path_;
  std::vector<std::pair<std::string, std::string>> path_;  ///< key, title
  std::string last_key_;  ///< the key of the last Visit that returned
};

/// The one defined function options.root names.
const Function& FindRoot(const CallGraph& graph, const std::string& root) {
  const Function* found = nullptr;
  std::size_t matches = 0;
  for (const auto& [title, f] : graph.functions) {
    if (!f.defined) continue;
    if (BareTitle(title) == root || QualifiedName(f.declaration) == root) {
      ++matches;
      found = &f;
    }
  }
  if (matches == 0) {
    throw InputError("--root " + root +
                     ": no call graph given defines a function of that name");
  }
  if (matches > 1) {
    throw InputError("--root " + root + ": " + std::to_string(matches) +
                     " functions have that name; give its assembler name");
  }
  return *found;
}

}  // namespace

StackBound BoundStack(const CallGraph& graph, const BoundOptions& options) {
  const Function& root = FindRoot(graph, options.root);
  Search search(graph, options);
  const std::vector<std::uint64_t> none(options.recursion.size(), 0);
  if (!search.Visit(root, root.where, none)) {
    throw InputError("--recursion: a stated depth of 0 rules out " +
                     options.root + " itself");
  }
  return search.Result();
}

}  // namespace arenaplan::stack
