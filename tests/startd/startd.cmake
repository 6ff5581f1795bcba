add_executable(test_state ${CMAKE_CURRENT_SOURCE_DIR}/test_state.c)
target_link_libraries(test_state PRIVATE sd_state ${CMOCKA_LIB})
add_test(NAME startd_state COMMAND test_state)
# WANT_HOLD's reason and codes (sd_hold.h).
add_executable(test_hold ${CMAKE_CURRENT_SOURCE_DIR}/test_hold.c)
target_link_libraries(test_hold PRIVATE sd_hold ${CMOCKA_LIB})
add_test(NAME startd_hold COMMAND test_hold)

# A master, collector and startd on loopback (startd_test.sh).
add_test(NAME startd_pool
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/startd_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_pool PROPERTIES TIMEOUT 180)

# Stands in for the schedd and negotiator in startd_test.sh.
add_executable(ks_claim ${CMAKE_CURRENT_SOURCE_DIR}/ks_claim.c)
target_link_libraries(ks_claim PRIVATE ks_net)

# A startd killed with SIGKILL while jobs run: no job runs on, the next
# startd clears what was left before it advertises, each job runs to its
# end once (startd_death_test.sh, a whole pool).
add_test(NAME startd_death
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/startd_death_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_death PROPERTIES TIMEOUT 300)

# A job that ignores its soft kill is hard-killed after its vacate time,
# and a starter that does not end it is killed with the job's processes
# after KILLING_TIMEOUT: condor_rm, condor_hold, condor_vacate, PREEMPT
# (kill_escalation_test.sh, a whole pool).
add_test(NAME startd_kill_escalation
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/kill_escalation_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_kill_escalation PROPERTIES TIMEOUT 300)

# A job's end outlives its startd's death until its claimer has had it:
# the startd's answers for the ends it kept (ks_claim), and a job that
# ended while its schedd was stopped completes once through the next
# startd (end_kept_test.sh, a whole pool).
add_test(NAME startd_end_kept
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/end_kept_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_end_kept PROPERTIES TIMEOUT 300)

# The startd's side of partitionable-slot preemption: REQUEST_CLAIM with
# PreemptDslotClaims (pslot_preempt_startd_test.sh).
add_test(NAME startd_pslot_preempt
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/pslot_preempt_startd_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_pslot_preempt PROPERTIES TIMEOUT 300)
