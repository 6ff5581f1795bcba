# The startd's cron jobs (sd_cron.h), run for real by a real loop.
add_executable(test_cron ${CMAKE_CURRENT_SOURCE_DIR}/test_cron.c)
target_compile_definitions(test_cron PRIVATE
  CRON_SCRIPT="${CMAKE_CURRENT_SOURCE_DIR}/cron_job.sh")
target_link_libraries(test_cron PRIVATE sd_cron ${CMOCKA_LIB})
add_test(NAME startd_cron COMMAND test_cron)
set_tests_properties(startd_cron PROPERTIES TIMEOUT 180)
