# condor_mips and condor_kflops: the startd's default BENCHMARKS jobs
# ($(LIBEXEC)/condor_mips, $(LIBEXEC)/condor_kflops), one source each way.
add_executable(condor_mips ${CMAKE_CURRENT_SOURCE_DIR}/bench_main.c
               ${CMAKE_CURRENT_SOURCE_DIR}/bench.c)
add_executable(condor_kflops ${CMAKE_CURRENT_SOURCE_DIR}/bench_main.c
               ${CMAKE_CURRENT_SOURCE_DIR}/bench.c)
target_compile_definitions(condor_kflops PRIVATE KS_BENCH_KFLOPS)
install(TARGETS condor_mips condor_kflops
        RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR})
