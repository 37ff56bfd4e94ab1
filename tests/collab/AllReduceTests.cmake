# The tests of the all-reduce (AllReduceRound and its parts), included by tests/collab/CMakeLists.txt and by
# the clang build of scripts/fuzz.sh (docs/fuzzing.md): GCC and clang evaluate a call's arguments in
# different orders, and a round that read a moved-from message under one compiler only banned every honest
# early sender (docs/security.md). The target allreduce_tests builds them all.
set(allreduce_tests_dir ${CMAKE_CURRENT_LIST_DIR})
add_custom_target(allreduce_tests)

# Robust aggregation (CenteredClip) of an aggregator's parts.
sahaj_add_test(NAME tst_centered_clip SOURCES ${allreduce_tests_dir}/tst_centered_clip.cpp LIBS sahaj_collab
               LABELS unit TIMEOUT 60)
# Weights bounded by what senders reported.
sahaj_add_test(NAME tst_weight_bounds SOURCES ${allreduce_tests_dir}/tst_weight_bounds.cpp LIBS sahaj_collab
               LABELS unit TIMEOUT 60)
# The stash of early round messages: bounded in bytes, per sender and by epoch.
sahaj_add_test(NAME tst_round_stash SOURCES ${allreduce_tests_dir}/tst_round_stash.cpp LIBS sahaj_collab
               LABELS unit TIMEOUT 60)
# Sealed averages: seals verify only as made; two that differ prove an aggregator equivocated.
sahaj_add_test(NAME tst_span_seals SOURCES ${allreduce_tests_dir}/tst_span_seals.cpp LIBS sahaj_collab
               LABELS unit TIMEOUT 60)
# Audited averages: parts verify only as signed; an auditor's recompute finds honest means and proves lies.
sahaj_add_test(NAME tst_part_audit SOURCES ${allreduce_tests_dir}/tst_part_audit.cpp LIBS sahaj_collab
               LABELS unit TIMEOUT 60)
# Which violators' span means a member took: a state round holding one is not taken.
sahaj_add_test(NAME tst_allreduce_result SOURCES ${allreduce_tests_dir}/tst_allreduce_result.cpp
               LIBS sahaj_collab LABELS unit TIMEOUT 60)

# A member of an all-reduce as its own process, and the tests that run several of them on loopback.
add_executable(sahaj-allreduce-peer ${allreduce_tests_dir}/allreduce_peer_main.cpp
               ${allreduce_tests_dir}/AllReduceTestVector.h ${allreduce_tests_dir}/PeerArguments.h
               ${allreduce_tests_dir}/MisbehavingMember.cpp ${allreduce_tests_dir}/MisbehavingMember.h)
sahaj_target_defaults(sahaj-allreduce-peer)
target_link_libraries(sahaj-allreduce-peer PRIVATE sahaj_collab nlohmann_json::nlohmann_json)
sahaj_add_test(NAME tst_allreduce_processes SOURCES ${allreduce_tests_dir}/tst_allreduce_processes.cpp
               ${allreduce_tests_dir}/AllReduceTestVector.h LIBS sahaj_collab LABELS integration TIMEOUT 600
               COST 50 WAITS)
target_compile_definitions(tst_allreduce_processes PRIVATE
                           SAHAJ_ALLREDUCE_PEER="$<TARGET_FILE:sahaj-allreduce-peer>")
add_dependencies(tst_allreduce_processes sahaj-allreduce-peer)

add_dependencies(allreduce_tests tst_centered_clip tst_weight_bounds tst_round_stash tst_allreduce_result
                 tst_span_seals tst_part_audit tst_allreduce_processes)
