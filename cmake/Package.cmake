# The installed package (`cmake --install build --prefix <prefix>`,
# docs/integration.md). Relocatable: every path in it is relative to the
# file that names it.
#   bin/arenaplan                       the CLI (arenaplan::arenaplan)
#   include/arenaplan/                  core/include and kernels/include
#                                       (arenaplan::runtime, header-only)
#   share/arenaplan/cmake/              arenaplanConfig.cmake, the targets and
#                                       ArenaplanGenerate/Compile/Firmware.cmake
#   share/arenaplan/port/, boards/      start-up code, link script, board files
#                                       (arenaplan_firmware())
#   share/arenaplan/arenaplan.mk        the make fragment
# find_package(arenaplan CONFIG REQUIRED) finds share/arenaplan/cmake under
# a prefix on CMAKE_PREFIX_PATH.
include(CMakePackageConfigHelpers)

# arenaplan::runtime inside this build too (the same name as installed).
add_library(arenaplan_runtime INTERFACE)
add_library(arenaplan::runtime ALIAS arenaplan_runtime)
target_include_directories(arenaplan_runtime INTERFACE
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/core/include>
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/kernels/include>
  $<INSTALL_INTERFACE:include>)
target_compile_features(arenaplan_runtime INTERFACE cxx_std_17)
set_target_properties(arenaplan_runtime PROPERTIES EXPORT_NAME runtime)

set(ARENAPLAN_PACKAGE_DIR share/arenaplan)
install(TARGETS arenaplan arenaplan_runtime EXPORT arenaplanTargets
        RUNTIME DESTINATION bin)
install(EXPORT arenaplanTargets NAMESPACE arenaplan::
        DESTINATION ${ARENAPLAN_PACKAGE_DIR}/cmake)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/core/include/
                  ${CMAKE_SOURCE_DIR}/kernels/include/
        DESTINATION include FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
# The version file accepts any architecture: the headers are
# header-only and the CLI runs on the build machine, whatever a
# cross-compiling project's pointer size.
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/generated/arenaplanConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion
  ARCH_INDEPENDENT)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/arenaplanConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/arenaplanConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/ArenaplanCommon.cmake
              ${CMAKE_SOURCE_DIR}/cmake/ArenaplanGenerate.cmake
              ${CMAKE_SOURCE_DIR}/cmake/ArenaplanCompile.cmake
              ${CMAKE_SOURCE_DIR}/cmake/ArenaplanFirmware.cmake
        DESTINATION ${ARENAPLAN_PACKAGE_DIR}/cmake)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/port ${CMAKE_SOURCE_DIR}/boards
        DESTINATION ${ARENAPLAN_PACKAGE_DIR})
install(FILES ${CMAKE_SOURCE_DIR}/arenaplan.mk
        DESTINATION ${ARENAPLAN_PACKAGE_DIR})
