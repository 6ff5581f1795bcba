# The slot state machine: pure logic, shared by the startd and its tests.
add_library(sd_state STATIC ${CMAKE_CURRENT_SOURCE_DIR}/state.c)
target_include_directories(sd_state PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
                           PRIVATE ${CMAKE_SOURCE_DIR}/common/util)

# WANT_HOLD's reason and codes: pure, shared by the startd and its tests.
add_library(sd_hold STATIC ${CMAKE_CURRENT_SOURCE_DIR}/hold.c)
target_include_directories(sd_hold PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(sd_hold PUBLIC classad_static)

add_executable(condor_startd
  ${CMAKE_CURRENT_SOURCE_DIR}/startd.c ${CMAKE_CURRENT_SOURCE_DIR}/slot.c
  ${CMAKE_CURRENT_SOURCE_DIR}/engine.c ${CMAKE_CURRENT_SOURCE_DIR}/features.c
  ${CMAKE_CURRENT_SOURCE_DIR}/benchmarks.c
  ${CMAKE_CURRENT_SOURCE_DIR}/ad.c ${CMAKE_CURRENT_SOURCE_DIR}/sysinfo.c
  ${CMAKE_CURRENT_SOURCE_DIR}/claim.c
  ${CMAKE_CURRENT_SOURCE_DIR}/drain.c ${CMAKE_CURRENT_SOURCE_DIR}/dslot.c
  ${CMAKE_CURRENT_SOURCE_DIR}/backfill.c ${CMAKE_CURRENT_SOURCE_DIR}/jobload.c
  ${CMAKE_CURRENT_SOURCE_DIR}/preempt.c ${CMAKE_CURRENT_SOURCE_DIR}/account.c
  ${CMAKE_CURRENT_SOURCE_DIR}/pslot_preempt.c
  ${CMAKE_CURRENT_SOURCE_DIR}/leftovers.c ${CMAKE_CURRENT_SOURCE_DIR}/end.c)
target_link_libraries(condor_startd PRIVATE sd_layout sd_state sd_hold sd_cron ks_daemon
                      ks_xfer ks_jobad sr_family sr_file)
install(TARGETS condor_startd RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
