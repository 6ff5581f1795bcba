add_executable(test_state ${CMAKE_CURRENT_SOURCE_DIR}/test_state.c)
target_link_libraries(test_state PRIVATE sd_state ${CMOCKA_LIB})
add_test(NAME startd_state COMMAND test_state)

# A master, collector and startd on loopback (startd_test.sh).
add_test(NAME startd_pool
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/startd_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_pool PROPERTIES TIMEOUT 180)

# Stands in for the schedd and negotiator in startd_test.sh.
add_executable(ks_claim ${CMAKE_CURRENT_SOURCE_DIR}/ks_claim.c)
target_link_libraries(ks_claim PRIVATE ks_net)
