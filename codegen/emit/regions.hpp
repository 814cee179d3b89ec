// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The outputs of a plan across memory regions (codegen/regions/regions.hpp): JSON,
// CSV, a human summary and the firmware header. Only `--region` reaches
// them; a plan without regions goes through plan_text, csv and header as
// before, unchanged.
#ifndef ARENAPLAN_CODEGEN_EMIT_REGIONS_HPP_
#define ARENAPLAN_CODEGEN_EMIT_REGIONS_HPP_

#include <string>

#include "codegen/emit/header.hpp"
#include "codegen/regions/regions.hpp"

namespace arenaplan {

/// One JSON object: the whole plan's summary, `regions` ([{name, capacity,
/// bytes, traffic_bytes, section, strategy, naive_split_traffic_bytes}] in
/// the order given) and `placements` (input order), each with its `region`
/// (name), its offset from that region's start and its traffic.
[[nodiscard]] std::string RegionPlanJson(const RegionPlan& plan);

/// CSV rows in input order: id,lower,upper,size,offset,region, then the
/// input's extra columns; `offset` is relative to the region's start.
[[nodiscard]] std::string RegionPlanCsv(const RegionPlan& plan);

/// The firmware header of a plan across regions: per region a namespace
/// region_NAME with kRegionSize, kRegionSection and its array in its
/// section; kPlan of arenaplan::RegionPlacement {region, offset, size,
/// first_op, last_op}; and static_asserts that core's constexpr validator
/// accepts every region on its own (docs/regions.md). Throws InputError for
/// a bad namespace, InternalError for inconsistent input.
[[nodiscard]] std::string EmitRegionHeader(const RegionPlan& plan,
                                           const HeaderOptions& options);

/// The human summary `arenaplan plan --region` prints.
[[nodiscard]] std::string RegionPlanSummary(const RegionPlan& plan);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_REGIONS_HPP_
