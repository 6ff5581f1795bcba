# The slot state machine: pure logic, shared by the startd and its tests.
add_library(sd_state STATIC ${CMAKE_CURRENT_SOURCE_DIR}/state.c)
target_include_directories(sd_state PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
