# The machine's resources and their division into slots (sd_machine.h,
# sd_layout.h): start-up logic, shared by the startd and its tests.
add_library(sd_layout STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/machine.c
  ${CMAKE_CURRENT_SOURCE_DIR}/layout.c)
target_include_directories(sd_layout PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(sd_layout PUBLIC ks_config m)
