# The machine's resources and the slot layout (startd/sd_layout.h).
# layout_gpus.sh is a stand-in GPU inventory command.
add_executable(test_layout ${CMAKE_CURRENT_SOURCE_DIR}/test_layout.c)
target_link_libraries(test_layout PRIVATE sd_layout ${CMOCKA_LIB})
target_compile_definitions(test_layout PRIVATE
  LAYOUT_TEST_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
add_test(NAME startd_layout COMMAND test_layout)
