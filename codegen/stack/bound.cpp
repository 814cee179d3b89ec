// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/stack/bound.hpp"

#include <cstddef>
#include <map>
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
constexpr std::size_t kMaxDepth = 10000;

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
      : graph_(graph), options_(options) {}

  /// The worst stack of `f`, its path in best_[f.title].
  std::uint64_t Visit(const Function& f, const std::string& called_at) {
    if (const auto done = best_.find(f.title); done != best_.end()) {
      return done->second.bytes;
    }
    if (on_path_.contains(f.title)) {
      std::string cycle;
      bool in = false;
      for (const std::string& t : path_) {
        in = in || t == f.title;
        if (in) cycle += NameOf(graph_.functions.at(t)) + " -> ";
      }
      throw InputError(called_at + ": recursion: " + cycle + NameOf(f) +
                       " (a recursive call has no stack bound)");
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
      return best_.emplace(f.title, mine).first->second.bytes;
    }
    if (f.kind == FrameKind::kDynamic) {
      throw InputError(f.where + ": " + NameOf(f) +
                       ": its frame is dynamic without a bound "
                       "(-fstack-usage: \"dynamic\"), so no stack bound "
                       "exists");
    }
    on_path_.insert(f.title);
    path_.push_back(f.title);
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
        bytes = Visit(callee, call.where);
        tail = best_.at(callee.title).path;
      }
      if (bytes > deepest || deepest_path.empty()) {
        deepest = bytes;
        deepest_path = std::move(tail);
      }
    }
    path_.pop_back();
    on_path_.erase(f.title);
    mine.bytes = SaturatingAdd(f.frame_bytes, deepest);
    mine.path.push_back({NameOf(f), f.frame_bytes, false});
    mine.path.insert(mine.path.end(), deepest_path.begin(), deepest_path.end());
    return best_.emplace(f.title, std::move(mine)).first->second.bytes;
  }

  [[nodiscard]] const StackBound& Result(const std::string& title) const {
    return best_.at(title);
  }

 private:
  const CallGraph& graph_;
  const BoundOptions& options_;
  std::map<std::string, StackBound> best_;  ///< by title, once visited
  std::set<std::string> on_path_;
  std::vector<std::string> path_;  ///< titles, root first
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
  search.Visit(root, root.where);
  return search.Result(root.title);
}

}  // namespace arenaplan::stack
