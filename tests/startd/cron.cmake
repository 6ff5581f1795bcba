# The startd's cron jobs (sd_cron.h), run for real by a real loop.
add_executable(test_cron ${CMAKE_CURRENT_SOURCE_DIR}/test_cron.c)
target_compile_definitions(test_cron PRIVATE
  CRON_SCRIPT="${CMAKE_CURRENT_SOURCE_DIR}/cron_job.sh")
target_link_libraries(test_cron PRIVATE sd_cron ${CMOCKA_LIB})
add_test(NAME startd_cron COMMAND test_cron)
set_tests_properties(startd_cron PROPERTIES TIMEOUT 180)

# The startd's benchmarks (BENCHMARKS_*, condor_mips, condor_kflops) run
# when RunBenchmarks becomes true, in the Benchmarking activity
# (bench_test.sh, a master, collector and startd).
add_test(NAME startd_benchmarks
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bench_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_benchmarks PROPERTIES TIMEOUT 200)
