# Every test's tier, as a CTest label (README.md, "Testing"):
#   unit   in-process tests (cmocka, the ClassAd vector runner): no daemon,
#          no command run; ctest -L unit takes well under a minute
#   tools  the commands run against files, no daemon: the reference
#          vectors, the output cases, the command-line checks (minutes,
#          for their number)
#   pool   integration: a personal pool's daemons on 127.0.0.1
#   fuzz   the fuzzers' corpora replayed (and, with KS_FUZZ, short runs)
#   soak   over about two minutes each
# A test is labelled by the first rule its name matches, so that the files
# declaring tests stay as they are: each tests/ CMakeLists.txt begins with
#   cmake_language(DEFER CALL ks_label_tests)
# (CMake sets a test's properties only from its own directory); a test
# labelled where it is declared (set_tests_properties ... LABELS) keeps
# its label.  A test no rule names gets none, and tests_labelled fails
# naming it.
set(KS_TEST_TIERS
  soak "^(soak_short|startd_desktop_policy)$"
  fuzz "^fuzz_"
  # (CMake's regular expressions take at most nine groups each)
  unit "^(log|userlog|ulogread|xfer|token|status|queue_tools|net|store|who|watch_q|util)_unit$"
  unit "^classad_(vectors|parse|eval|builtins|formats|match|xml)$"
  unit "^(config_unit|config_knobs_used|net_authz|vacate_drain_args|tests_labelled)$"
  unit "^(daemon_(loop|lock|parent|call)|collector_(updstats|store)|schedd_(transform|queue))$"
  unit "^startd_(layout|cron|starter_args|starter_user|passwd_files|sr_file|sr_end|state|hold|latch)$"
  unit "^negotiator_(accountant|share|match|limits|groups|pslot_preempt)$"
  tools "^(status|queue_tools)_case_"
  tools "^(config_(vectors_.*|seeds)|submit_(vectors_.*|cases_.*|cli))$"
  tools "^(token_tools|install_layout|condor_(version|wait)_cmd)$"
  pool "^(pool_collector|pool_multihost|daemon_big_attr|daemon_instance_.*)$"
  pool "^startd_(benchmarks|starter|pool|death|kill_escalation|end_kept|pslot_preempt|policy_loop|consumption_pool|want_hold)$"
  pool "^negotiator_(pool|preempt_.*|groups_pool)$"
  pool "^schedd_(pool|cron|transform_pool|crash|priv|xfer|multihost|personal|stopped_peer)$"
  pool "^(net_authz_pool|submit_pool|vacate_drain_pool|who_pool|resched_prio_cmd|condor_watch_q_cmd)$"
)

# ks_label_tests(): labels the tests of the current directory.
function(ks_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    get_test_property(${t} LABELS have)
    if(have)
      continue()
    endif()
    set(rules ${KS_TEST_TIERS})
    while(rules)
      list(POP_FRONT rules label regex)
      if(t MATCHES "${regex}")
        set_tests_properties(${t} PROPERTIES LABELS ${label})
        break()
      endif()
    endwhile()
  endforeach()
endfunction()

# Fails naming every test without a tier (itself in the unit tier).
add_test(NAME tests_labelled
         COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR}
                 -P ${CMAKE_CURRENT_LIST_DIR}/labels_check.cmake)
