# cmake -DBUILD=DIR -P labels_check.cmake: fails when a test of the build
# has none of the tiers' labels (tests/labels.cmake says where to add it).
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${BUILD} -N
                        -LE "^(unit|tools|pool|fuzz|soak)$"
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctest -N failed (${rc}):\n${out}")
endif()
string(REGEX MATCHALL "Test +#[0-9]+: [^\n]+" unlabelled "${out}")
if(unlabelled)
  string(REPLACE ";" "\n  " unlabelled "${unlabelled}")
  message(FATAL_ERROR "tests with no tier label (add them to a rule of "
                      "tests/labels.cmake):\n  ${unlabelled}")
endif()
