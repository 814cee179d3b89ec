/* Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
 *
 * The two test images, embedded byte for byte from the shared directory
 * (paths given by the build as PD_PERSON_BMP and PD_NO_PERSON_BMP), in
 * flash (.rodata). */
  .section .rodata.pd_images, "a"
  .balign 4
  .global pd_person_bmp
  .global pd_person_bmp_end
pd_person_bmp:
  .incbin PD_PERSON_BMP
pd_person_bmp_end:
  .balign 4
  .global pd_no_person_bmp
  .global pd_no_person_bmp_end
pd_no_person_bmp:
  .incbin PD_NO_PERSON_BMP
pd_no_person_bmp_end:
