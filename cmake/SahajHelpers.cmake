# Shared CMake functions for Sahaj targets.

# Common include roots and warnings for every first-party target.
function(sahaj_target_defaults target)
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()

# sahaj_add_test(NAME <name> SOURCES <files...> LIBS <targets...> LABELS <labels...> [TIMEOUT <s>])
# Builds a Qt Test executable and registers it with CTest. Tests find the repository and the shared
# data folder through SAHAJ_SOURCE_DIR and SAHAJ_SHARED_DIR (the latter may be absent: tests skip then), and
# the tokenizer the build trains on the test sample through SAHAJ_SAMPLE_TOKENIZER (tests/CMakeLists.txt).
function(sahaj_add_test)
    cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${T_NAME} ${T_SOURCES})
    sahaj_target_defaults(${T_NAME})
    target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
    add_test(NAME ${T_NAME} COMMAND ${T_NAME})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 600)
    endif()
    get_filename_component(shared_dir ${PROJECT_SOURCE_DIR}/../shared ABSOLUTE)
    set_tests_properties(${T_NAME} PROPERTIES
        LABELS "${T_LABELS}"
        TIMEOUT ${T_TIMEOUT}
        ENVIRONMENT "SAHAJ_SOURCE_DIR=${PROJECT_SOURCE_DIR};SAHAJ_SHARED_DIR=${shared_dir};SAHAJ_NODE=$<TARGET_FILE:sahaj-node>;SAHAJ_SAMPLE_TOKENIZER=${SAHAJ_SAMPLE_TOKENIZER};QT_QPA_PLATFORM=offscreen")
endfunction()
