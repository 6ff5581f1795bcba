# Latched expressions, CpuIsBusy and CpuBusyTime (sd_latch.h): pure,
# shared by the startd and its tests.
add_library(sd_latch STATIC ${CMAKE_CURRENT_SOURCE_DIR}/latch.c)
target_include_directories(sd_latch PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(sd_latch PUBLIC classad_static)
target_link_libraries(condor_startd PRIVATE sd_latch)
