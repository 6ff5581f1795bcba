# The starter: its argument, environment and job ad syntaxes (cmocka), and
# the real condor_starter running small jobs (starter_test.sh; parts that
# need root are skipped without it).
add_executable(test_starter_args ${CMAKE_CURRENT_SOURCE_DIR}/test_starter_args.c)
target_link_libraries(test_starter_args PRIVATE ks_jobad ${CMOCKA_LIB})
add_test(NAME startd_starter_args COMMAND test_starter_args)

add_test(NAME startd_starter
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/starter_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(startd_starter PROPERTIES TIMEOUT 180)

# The job's account, as the startd hands it to each starter.
add_executable(test_starter_user ${CMAKE_CURRENT_SOURCE_DIR}/test_starter_user.c)
target_link_libraries(test_starter_user PRIVATE ks_jobad ${CMOCKA_LIB})
add_test(NAME startd_starter_user COMMAND test_starter_user)

# The static starter's account lookups from the files (ks_passwd.h), which
# must agree with the name service on local accounts.
add_executable(test_passwd_files ${CMAKE_CURRENT_SOURCE_DIR}/test_passwd_files.c
               ${CMAKE_SOURCE_DIR}/common/util/ks_passwd_files.c)
target_link_libraries(test_passwd_files PRIVATE classad_static ${CMOCKA_LIB})
add_test(NAME startd_passwd_files COMMAND test_passwd_files)

# Small files written whole or not at all (sr_file.h): a claim's record
# and a job's result, read again by the next startd.
add_executable(test_sr_file ${CMAKE_CURRENT_SOURCE_DIR}/test_sr_file.c)
target_link_libraries(test_sr_file PRIVATE sr_file ${CMOCKA_LIB})
add_test(NAME startd_sr_file COMMAND test_sr_file)

# How a job's end is named from the kill orders it got and its status
# (sr_end_how() in result.c).
add_executable(test_sr_end ${CMAKE_CURRENT_SOURCE_DIR}/test_sr_end.c
               ${CMAKE_SOURCE_DIR}/startd/starter/result.c)
target_include_directories(test_sr_end PRIVATE ${CMAKE_SOURCE_DIR}/startd/starter)
target_link_libraries(test_sr_end PRIVATE ks_jobad sr_file ${CMOCKA_LIB})
add_test(NAME startd_sr_end COMMAND test_sr_end)
