# condor_starter: one process per job activation (starter/main.c has the
# startd's contract).  The job ad, its argument/environment syntaxes and
# the choice of the job's account are common/jobad (ks_jobad.h), which the
# startd and condor_submit use too.
set(SR_DIR ${CMAKE_CURRENT_SOURCE_DIR}/starter)

# The job's process family from /proc: the starter watches and signals
# it, the startd kills what a starter leaves (sr_family.h).
add_library(sr_family STATIC ${SR_DIR}/family.c)
target_include_directories(sr_family PUBLIC ${SR_DIR})
target_link_libraries(sr_family PUBLIC classad_static)

# Small files written whole or not at all, for the startd and the starter
# (sr_file.h).
add_library(sr_file STATIC ${SR_DIR}/file.c)
target_include_directories(sr_file PUBLIC ${SR_DIR})
target_link_libraries(sr_file PUBLIC classad_static)

add_executable(condor_starter
  ${SR_DIR}/main.c ${SR_DIR}/jobenv.c
  ${SR_DIR}/result.c ${SR_DIR}/run.c ${SR_DIR}/sandbox.c
  ${SR_DIR}/spawn.c)
target_link_libraries(condor_starter PRIVATE ks_jobad sr_family sr_file ks_log
                      ks_config classad_static ks_xfer)
if(KS_STATIC_STARTER)
  # A static glibc cannot load the system's NSS modules: the starter reads
  # accounts from the files (ks_passwd.h), its own copy of the functions
  # keeping the archives' NSS one out.
  set_target_properties(condor_starter PROPERTIES KS_STATIC_LINK ON)
  target_sources(condor_starter PRIVATE
                 ${CMAKE_SOURCE_DIR}/common/util/ks_passwd_files.c)
  target_link_options(condor_starter PRIVATE -static-pie)
endif()
install(TARGETS condor_starter RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
