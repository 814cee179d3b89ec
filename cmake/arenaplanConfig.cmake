# arenaplanConfig.cmake -- the installed arenaplan package (cmake/Package.cmake).
#
#   find_package(arenaplan CONFIG REQUIRED)
#
# gives arenaplan::arenaplan (the CLI, an imported executable),
# arenaplan::runtime (core/ and kernels/, header-only, C++17) and the
# functions arenaplan_generate() (a plan header), arenaplan_compile() (a
# model compiled ahead of time into a target) and arenaplan_firmware() (an
# executable made a firmware image for a board of share/arenaplan/boards).
# Every path is found relative to this file: the prefix may be moved.
include("${CMAKE_CURRENT_LIST_DIR}/arenaplanTargets.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ArenaplanGenerate.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ArenaplanCompile.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ArenaplanFirmware.cmake")
