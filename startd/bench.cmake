# condor_mips and condor_kflops: the startd's default BENCHMARKS jobs
# ($(LIBEXEC)/condor_mips, $(LIBEXEC)/condor_kflops), one source each way.
add_executable(condor_mips ${CMAKE_CURRENT_SOURCE_DIR}/bench_main.c
               ${CMAKE_CURRENT_SOURCE_DIR}/bench.c
               ${PROJECT_SOURCE_DIR}/common/util/ks_clock.c)
add_executable(condor_kflops ${CMAKE_CURRENT_SOURCE_DIR}/bench_main.c
               ${CMAKE_CURRENT_SOURCE_DIR}/bench.c
               ${PROJECT_SOURCE_DIR}/common/util/ks_clock.c)
target_include_directories(condor_mips PRIVATE ${PROJECT_SOURCE_DIR}/common/util)
target_include_directories(condor_kflops PRIVATE ${PROJECT_SOURCE_DIR}/common/util)
target_compile_definitions(condor_kflops PRIVATE KS_BENCH_KFLOPS)
install(TARGETS condor_mips condor_kflops
        RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR})
