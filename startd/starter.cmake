# condor_starter: one process per job activation (starter/main.c has the
# startd's contract).  The job ad and argument/environment syntaxes are a
# library of their own so that tests/startd can test them directly; the
# choice of the job's account (user.c) is in it too, for the startd picks
# it once per Owner for its starters (sd_account.h).
set(SR_DIR ${CMAKE_CURRENT_SOURCE_DIR}/starter)
add_library(sr_jobad STATIC ${SR_DIR}/args.c ${SR_DIR}/job.c
            ${SR_DIR}/assigned.c ${SR_DIR}/user.c)
target_include_directories(sr_jobad PUBLIC ${SR_DIR})
target_link_libraries(sr_jobad PUBLIC ks_config ks_log classad_static
                      ks_pcre2)

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
target_link_libraries(condor_starter PRIVATE sr_jobad sr_family sr_file ks_log
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
