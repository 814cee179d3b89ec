#!/usr/bin/env bash
# `make test-const-memory`: a model's constants in the board's CONST memory
# when the code memory cannot hold them (docs/boards.md, "Model
# constants"). From the repository root:
#   tests/run/const_check.sh SHARED_DIR
#  1. tflm_id_model (corpus; its code and constants exceed mps3-an547's
#     512 KiB ITCM) on mps3-an547: it runs, its constants are in the
#     .model_const section inside the QSPI flash (0x28000000, 8 MiB), and
#     its output equals TensorFlow Lite Micro's reference bytes.
#  2. kws_ref_model on mps3-an547 (it fits the ITCM): no .model_const
#     section, nothing said of CONST; output equals TFLM's.
#  3. Forced past the limit: kws_ref_model with 8 MiB + 1 byte more of
#     constants (one more constant array, referenced from Invoke()): the
#     link refuses it, exit 3, naming the CONST memory and its size.
set -uo pipefail
shared=$1
cli=${ARENAPLAN_CLI:-build/arenaplan}
out=${RUN_OUT:-build/run}/const-check
mkdir -p "$out"
fail=0
pass() { echo "const: $1: PASS"; }
failed() { echo "const: $1: FAIL${2:+ ($2)}"; fail=1; }
size_a=${ARM_SIZE:-arm-none-eabi-size}

# The .model_const section's address of ELF, or nothing.
const_at() { "$size_a" -A "$1" | awk '$1 == ".model_const" { print $3 }'; }

status=0
ref=$shared/corpus-reference/tflm_id_model
RUN_OUT=$out run/run.sh "$shared/corpus/tflm_id_model.tflite" mps3-an547 \
  "$ref/seed201.in.bin" "$out/id.out.bin" best > "$out/id.log" 2>&1 || status=$?
at=$(const_at "$out/tflm_id_model/mps3-an547/best/run.elf" 2>/dev/null)
if [ $status -eq 0 ] && cmp -s "$out/id.out.bin" "$ref/seed201.out.bin" &&
    [ -n "$at" ] && [ "$at" -ge $((0x28000000)) ] && [ "$at" -lt $((0x28800000)) ] &&
    grep -q 'constants [0-9]* bytes in CONST at 0x28' "$out/id.log"; then
  pass "tflm_id_model, constants in the QSPI flash at $(printf '0x%08x' "$at"), output equals TFLM's"
else
  failed "tflm_id_model, constants in the QSPI flash" "exit $status; $(tail -n 1 "$out/id.log")"
fi

status=0
ref=$shared/reference/kws_ref_model
RUN_OUT=$out run/run.sh "$shared/models/kws_ref_model.tflite" mps3-an547 \
  "$ref/sample.in.bin" "$out/kws.out.bin" best > "$out/kws.log" 2>&1 || status=$?
if [ $status -eq 0 ] && cmp -s "$out/kws.out.bin" "$ref/sample.out.bin" &&
    [ -z "$(const_at "$out/kws_ref_model/mps3-an547/best/run.elf")" ] &&
    ! grep -q 'in CONST' "$out/kws.log"; then
  pass "kws_ref_model fits the ITCM: its constants stay with the code, output equals TFLM's"
else
  failed "kws_ref_model with the code" "exit $status; $(tail -n 1 "$out/kws.log")"
fi

# A CLI that writes what the real one writes, then adds 8 MiB + 1 byte of
# constants that Invoke() references.
wrap=$out/padded_cli.sh
real_cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
{
  echo '#!/usr/bin/env bash'
  echo "\"$real_cli\" \"\$@\" || exit \$?"
  cat <<'EOF'
# compile MODEL --out-dir DIR ...: DIR is the fourth argument.
[ "$1" = compile ] && [ -f "$4/model_model.cpp" ] || exit 0
perl -0pi -e 's|\n\}  // namespace\n\nvoid Invoke\(std::int8_t\* arena\) \{\n|\nARENAPLAN_CONST_ATTRIBUTES const std::int8_t kPadding[8388609] = {1};\n}  // namespace\n\nvoid Invoke(std::int8_t* arena) {\n  asm volatile("" : : "r"(kPadding));\n|' "$4/model_model.cpp"
EOF
} > "$wrap"
chmod +x "$wrap"
status=0
ARENAPLAN_CLI=$wrap RUN_OUT=$out/padded run/run.sh "$shared/models/kws_ref_model.tflite" \
  mps3-an547 "" "" best > "$out/padded.log" 2>&1 || status=$?
if [ $status -eq 3 ] &&
    grep -q "the model's constants need [0-9]* bytes, more than the board's CONST memory, 8388608 bytes at 0x28000000 (region .CONST' overflowed by [0-9]* bytes" "$out/padded.log" &&
    grep -q 'kPadding' "$out/padded/kws_ref_model/gen-best/model_model.cpp"; then
  pass "constants larger than the CONST memory refused at link time (exit 3)"
else
  failed "constants larger than the CONST memory" "exit $status; $(tail -n 1 "$out/padded.log")"
fi
exit $fail
