# TFLite reader (codegen/tflite/): generates the C++ accessors for arenaplan's
# subset of the TFLite schema with flatc and links the flatbuffers runtime.
find_package(FlatBuffers CONFIG REQUIRED)
find_program(ARENAPLAN_FLATC flatc REQUIRED)

set(ARENAPLAN_TFLITE_FBS ${CMAKE_SOURCE_DIR}/codegen/tflite/tflite_subset.fbs)
set(ARENAPLAN_TFLITE_GENERATED
    ${CMAKE_BINARY_DIR}/generated/tflite_subset_generated.h)
add_custom_command(
  OUTPUT ${ARENAPLAN_TFLITE_GENERATED}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated
  COMMAND ${ARENAPLAN_FLATC} --cpp --scoped-enums
          -o ${CMAKE_BINARY_DIR}/generated ${ARENAPLAN_TFLITE_FBS}
  DEPENDS ${ARENAPLAN_TFLITE_FBS}
  COMMENT "flatc: TFLite schema subset"
  VERBATIM)
add_custom_target(arenaplan_tflite_schema DEPENDS ${ARENAPLAN_TFLITE_GENERATED})
add_dependencies(arenaplan_lib arenaplan_tflite_schema)
target_sources(arenaplan_lib PRIVATE ${ARENAPLAN_TFLITE_GENERATED})
if(TARGET flatbuffers::flatbuffers)
  target_link_libraries(arenaplan_lib PUBLIC flatbuffers::flatbuffers)
elseif(TARGET flatbuffers::flatbuffers_shared)
  target_link_libraries(arenaplan_lib PUBLIC flatbuffers::flatbuffers_shared)
endif()
