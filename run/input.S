/* Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
 *
 * The input tensor's bytes for run/firmware.cpp, embedded byte for byte
 * from the file the build names in RUN_INPUT_FILE, in flash (.rodata). */
  .section .rodata.run_input, "a"
  .balign 4
  .global run_input
  .global run_input_end
run_input:
  .incbin RUN_INPUT_FILE
run_input_end:
