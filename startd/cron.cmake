# Daemon ClassAd hooks ("startd cron", sd_cron.h): the jobs the startd
# runs for attributes of its slot ads.
add_library(sd_cron STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/cron.c
  ${CMAKE_CURRENT_SOURCE_DIR}/cron_args.c
  ${CMAKE_CURRENT_SOURCE_DIR}/cron_output.c
  ${CMAKE_CURRENT_SOURCE_DIR}/cron_params.c
  ${CMAKE_CURRENT_SOURCE_DIR}/cron_proc.c
  ${CMAKE_CURRENT_SOURCE_DIR}/cron_publish.c)
target_include_directories(sd_cron PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(sd_cron PUBLIC ks_daemon PRIVATE ks_jobad)
