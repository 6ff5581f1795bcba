add_executable(test_state ${CMAKE_CURRENT_SOURCE_DIR}/test_state.c)
target_link_libraries(test_state PRIVATE sd_state ${CMOCKA_LIB})
add_test(NAME startd_state COMMAND test_state)
