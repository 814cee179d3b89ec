# shellcheck shell=bash
# Builds a firmware image for one board of boards/ and runs it under QEMU;
# sourced (bash, from the repository root) by tests/person_detect/run_target.sh
# and run/run.sh, so both build and run images the same way.
#
#   fw_board BOARD          reads boards/BOARD/board.mk (BOARD_* variables) and
#                           sets fw_cxx, fw_cxxflags and fw_ldflags; the
#                           optimisation level is $FW_OPT (default -Os);
#                           every object X.o gets GCC's frame sizes X.su and
#                           call graph X.ci beside it (-fstack-usage
#                           -fcallgraph-info=su, read by `arenaplan stack`)
#   fw_stale OUT FLAG...    true when OUT must be built again: it is missing,
#                           it was built with other FLAGs, or a file of its
#                           dependency list OUT.d (the compiler's -MMD/-MM
#                           output) is newer than OUT or gone (a kernel
#                           header edited since, another FW_OPT)
#   fw_compile OBJ SRC [CXXFLAG...]
#                           compiles SRC into OBJ with fw_cxxflags and
#                           CXXFLAGs when fw_stale says so or OBJ's call
#                           graph is missing (errors to OBJ.log)
#   fw_port DIR             compiles port/*.cpp into DIR/port/*.o (fw_compile)
#   fw_link ELF LD_DIR OBJ...
#                           links ELF with the arena fit check of
#                           port/cortex_m.ld: a measuring link (RAM made large,
#                           checks off) gives tests/target/fit_ld.sh the
#                           figures for LD_DIR/arenaplan_fit.ld, then the real
#                           link (map file ELF%.elf.map). Returns 1 when the
#                           measuring link fails (the code does not fit the
#                           code memory), 2 when the real one does (the arena
#                           or the RAM does not fit).
#   fw_qemu ELF LOG [QEMU_ARG...]
#                           runs ELF on the board's QEMU machine with
#                           semihosting, console to LOG, within
#                           $TARGET_TIMEOUT s (default 120); returns the
#                           firmware's exit status (124 on timeout)

fw_board() {
  local board=$1
  if [ ! -f "boards/$board/board.mk" ]; then
    echo "no boards/$board/board.mk; boards: $(cd boards && echo */ | tr -d /)" >&2
    return 2
  fi
  eval "$(sed -n 's/^\(BOARD_[A-Z_]*\) *:= *\(.*\)$/\1="\2"/p' "boards/$board/board.mk")"
  fw_board_name=$board
  fw_cxx=${ARM_CXX:-arm-none-eabi-g++}
  # BOARD_FLOAT holds one or two flags: split on purpose.
  # shellcheck disable=SC2206
  local arch=(-mcpu="$BOARD_CPU" -mthumb $BOARD_FLOAT)
  # shellcheck disable=SC2034  # used by the scripts that source this file
  fw_arch=("${arch[@]}")
  # -fconstexpr-ops-limit: the plan header's compile-time validate() of a
  # plan with ~900 records (armex_basic_lstm) takes more than GCC's default
  # 2^25 constexpr operations; the limit changes no generated code.
  # -ffp-contract=off: the float32 kernels round every product and sum on
  # its own, as TFLM's reference kernels on a host without fused
  # multiply-add (kernels/float/float.hpp); GCC's C++ default would fuse
  # them into VFMA on FPUs that have it.
  fw_cxxflags=("${arch[@]}" -std=c++17 "${FW_OPT:--Os}" -g -ffreestanding
    -fno-exceptions -fno-rtti -nostdlib -fno-threadsafe-statics -ffp-contract=off
    -ffunction-sections -fdata-sections -Wall -Wextra -Werror
    -fconstexpr-ops-limit=1073741824 -fstack-usage -fcallgraph-info=su
    -I. -Icore/include -Ikernels/include)
  # shellcheck disable=SC2054  # the commas belong to -Wl options
  fw_ldflags=("${arch[@]}" -nostdlib -T port/cortex_m.ld -Wl,--gc-sections
    -Wl,--defsym=__arenaplan_code_origin="$BOARD_CODE_ORIGIN"
    -Wl,--defsym=__arenaplan_code_length="$BOARD_CODE_LENGTH"
    -Wl,--defsym=__arenaplan_ram_origin="$BOARD_RAM_ORIGIN"
    -Wl,--defsym=__arenaplan_stack_size="$BOARD_STACK_SIZE")
}

fw_stale() {
  local target=$1 dep
  shift
  [ -f "$target" ] && [ -f "$target.d" ] && [ -f "$target.flags" ] || return 0
  [ "$(printf '%s\n' "$@")" = "$(cat "$target.flags")" ] || return 0
  # A path with a space splits into words that name no file: built again.
  for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$target.d"); do
    { [ -e "$dep" ] && [ ! "$dep" -nt "$target" ]; } || return 0
  done
  return 1
}

fw_compile() {
  local obj=$1 src=$2
  shift 2
  [ -f "${obj%.o}.ci" ] && ! fw_stale "$obj" "$fw_cxx" "${fw_cxxflags[@]}" "$@" "$src" &&
    return 0
  rm -f "$obj.flags"
  "$fw_cxx" "${fw_cxxflags[@]}" "$@" -MMD -MF "$obj.d" -c "$src" -o "$obj" \
    2>"$obj.log" || return 1
  printf '%s\n' "$fw_cxx" "${fw_cxxflags[@]}" "$@" "$src" >"$obj.flags"
}

# The stack of the libgcc helpers compiled code may call, which have no
# call graph (hand-written assembly, or C built without -fcallgraph-info):
# `arenaplan stack --external` bounds, bytes, read from the disassembly of
# arm-none-eabi GCC 12.2.1's libgcc.a (thumb/v6-m/nofp, the one multilib
# whose code calls them; cores with a divide instruction and UMULL do not):
# __aeabi_idiv, __aeabi_idivmod, __aeabi_uidiv and __aeabi_uidivmod
# (__divsi3, __udivsi3) push {r0, lr} only on division by zero, before
# calling __aeabi_idiv0 (a bare `bx lr`): 8; __aeabi_lmul pushes
# {r4-r7, lr} and then {r7, lr}: 28. A helper not listed here (e.g.
# __aeabi_ldivmod) makes the bound fail, naming it.
# The single-precision helpers the float32 kernels call on cores without an
# FPU (-mfloat-abi=soft), the larger of thumb/v6-m/nofp and thumb/v7-m/nofp
# in the same libgcc.a: __aeabi_fadd / __aeabi_fsub push {r3-r7, lr} (v6-m;
# none on v7-m) and call the leaf __clzsi2: 24; __aeabi_fmul /
# __aeabi_fdiv push {r4-r7, lr} then {r6, r7, lr} (v6-m): 32; the
# comparisons __aeabi_fcmp{eq,lt,le,gt,ge} store lr in 8 bytes, call
# __aeabi_cfcmpeq (push {r0-r3, lr}: 20) and __cmpsf2 (4) on v7-m: 32
# (v6-m: 8 + __lesf2 / __gesf2 12 or __eqsf2 16).
# shellcheck disable=SC2034  # used by run/run.sh
fw_libgcc_stack=(--external __aeabi_idiv=8 --external __aeabi_idivmod=8
  --external __aeabi_uidiv=8 --external __aeabi_uidivmod=8
  --external __aeabi_lmul=28
  --external __aeabi_fadd=24 --external __aeabi_fsub=24
  --external __aeabi_fmul=32 --external __aeabi_fdiv=32
  --external __aeabi_fcmpeq=32 --external __aeabi_fcmplt=32
  --external __aeabi_fcmple=32 --external __aeabi_fcmpgt=32
  --external __aeabi_fcmpge=32)

fw_port() {
  local dir=$1 src extra
  mkdir -p "$dir/port"
  for src in port/*.cpp; do
    extra=()
    [ "$(basename "$src")" = libc_min.cpp ] && extra=(-fno-tree-loop-distribute-patterns)
    fw_compile "$dir/port/$(basename "${src%.cpp}").o" "$src" "${extra[@]}" || {
      cat "$dir/port/$(basename "${src%.cpp}").o.log" >&2
      return 1
    }
  done
}

fw_link() {
  local elf=$1 ld=$2
  shift 2
  mkdir -p "$ld"
  : > "$ld/arenaplan_fit.ld"
  "$fw_cxx" "${fw_ldflags[@]}" -L"$ld" -Wl,--defsym=__arenaplan_ram_length=0x40000000 \
    -Wl,--defsym=__arenaplan_measure=1 "$@" -lgcc -o "${elf%.elf}.measure.elf" || return 1
  tests/target/fit_ld.sh "${elf%.elf}.measure.elf" "$fw_board_name" "$BOARD_RAM_ORIGIN" \
    "$BOARD_RAM_LENGTH" "$BOARD_STACK_SIZE" > "$ld/arenaplan_fit.ld" || return 1
  "$fw_cxx" "${fw_ldflags[@]}" -L"$ld" \
    -Wl,--defsym=__arenaplan_ram_length="$BOARD_RAM_LENGTH" \
    -Wl,-Map="${elf%.elf}.map" "$@" -lgcc -o "$elf" || return 2
}

fw_qemu() {
  local elf=$1 log=$2 status=0
  shift 2
  timeout --kill-after=5 "${TARGET_TIMEOUT:-120}" "${QEMU:-qemu-system-arm}" \
    -M "$BOARD_QEMU_MACHINE" -nographic \
    -semihosting-config enable=on,target=native "$@" -kernel "$elf" \
    </dev/null >"$log" 2>&1 || status=$?
  return $status
}
