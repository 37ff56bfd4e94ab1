# Shared CMake functions for Sahaj targets.

# Common include roots and warnings for every first-party target.
function(sahaj_target_defaults target)
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()

# sahaj_add_test(NAME <name> SOURCES <files...> LIBS <targets...> LABELS <labels...> [TIMEOUT <s>] [COST <s>]
#                [WAITS])
# Builds a Qt Test executable and registers it with CTest. Tests find the repository and the shared
# data folder through SAHAJ_SOURCE_DIR and SAHAJ_SHARED_DIR (the latter may be absent: tests skip then), and
# the tokenizer the build trains on the test sample through SAHAJ_SAMPLE_TOKENIZER (tests/CMakeLists.txt).
# COST is about how many seconds the test takes in CI: ctest -j starts the costliest tests first, so that on
# a fresh clone (no timing history) a ten-minute test does not start last and run alone at the end.
# WAITS: the test mostly waits (on timeouts, shaped lines, other processes' epochs), so it takes half a core
# (sahaj_test_cpu_share).
function(sahaj_add_test)
    cmake_parse_arguments(T "WAITS" "NAME;TIMEOUT;COST" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${T_NAME} ${T_SOURCES})
    sahaj_target_defaults(${T_NAME})
    target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
    sahaj_reuse_test_headers(${T_NAME} ${T_LIBS})
    add_test(NAME ${T_NAME} COMMAND ${T_NAME})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 600)
    endif()
    get_filename_component(shared_dir ${PROJECT_SOURCE_DIR}/../shared ABSOLUTE)
    set(environment SAHAJ_SOURCE_DIR=${PROJECT_SOURCE_DIR} SAHAJ_SHARED_DIR=${shared_dir}
        SAHAJ_SAMPLE_TOKENIZER=${SAHAJ_SAMPLE_TOKENIZER} QT_QPA_PLATFORM=offscreen)
    if(TARGET sahaj-node) # the clang build of the all-reduce's tests has no app (tests/collab/AllReduceTests.cmake)
        list(APPEND environment SAHAJ_NODE=$<TARGET_FILE:sahaj-node>)
    endif()
    set_tests_properties(${T_NAME} PROPERTIES
        LABELS "${T_LABELS}"
        TIMEOUT ${T_TIMEOUT}
        ENVIRONMENT "${environment}")
    if(T_COST)
        set_tests_properties(${T_NAME} PROPERTIES COST ${T_COST})
    endif()
    if(T_WAITS)
        sahaj_test_cpu_share(${T_NAME} 1)
    else()
        sahaj_test_cpu_share(${T_NAME} 2)
    endif()
endfunction()

# sahaj_test_cpu_share(<test> <half cores>)
# How much CPU a test takes, in half cores: 2 for one that computes all the time, 1 for one that mostly
# waits (its processes' CPU time over its wall time was about half or less, measured in a CI-like run).
# scripts/test.sh gives ctest a resource file of two slots per core and runs as many tests as fit, so tests
# that wait fill the cores that computing tests would leave idle; a plain `ctest -j N` ignores the shares.
function(sahaj_test_cpu_share test half_cores)
    set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "half_cores:${half_cores}")
endfunction()

# Test executables parse Qt Test, QtCore and (some) libtorch or QtWidgets headers again in every one of
# some hundred files: most of their build time (docs/architecture.md, "Build time"). They share three
# precompiled headers instead, each built once by a small host executable: plain tests, widget tests, and
# tests of the model (libtorch). A test takes the one whose macros match its own: GCC refuses a precompiled
# header built with other QT_GUI_LIB/QT_WIDGETS_LIB or torch definitions (-Winvalid-pch says so).
set(SAHAJ_TORCH_TEST_LIBS sahaj_model sahaj_optim sahaj_train sahaj_eval sahaj_device)
set(SAHAJ_WIDGET_TEST_LIBS sahaj_ui sahaj_gui_test_support Qt6::Widgets)
set(SAHAJ_TEST_HEADERS <QTest> <QObject> <QString> <QByteArray> <QList> <QHash> <QDir> <QFile> <QFileInfo>
    <QTemporaryDir> <QDateTime> <QElapsedTimer> <QJsonArray> <QJsonDocument> <QJsonObject> <QProcess> <QSignalSpy>
    <algorithm> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <optional> <stdexcept> <string> <vector>)

# sahaj_add_test_header_host(<name> LIBS <targets...> HEADERS <headers...>)
function(sahaj_add_test_header_host name)
    cmake_parse_arguments(H "" "" "LIBS;HEADERS" ${ARGN})
    set(main ${CMAKE_CURRENT_BINARY_DIR}/${name}.cpp)
    # Written only when missing or different: a rewrite at every configure would rebuild the host, whose
    # one source loads the precompiled header (libtorch's: ~20 s).
    file(CONFIGURE OUTPUT ${main} CONTENT "int main() { return 0; }\n")
    add_executable(${name} ${main})
    sahaj_target_defaults(${name})
    target_link_libraries(${name} PRIVATE Qt6::Test ${H_LIBS})
    target_precompile_headers(${name} PRIVATE ${SAHAJ_TEST_HEADERS} ${H_HEADERS})
endfunction()

# The test's precompiled header: torch for a test that links the model's libraries (a test of the model's
# torch-free description links sahaj_model_layout: libtorch's header costs a test that does not include it
# more to load than it saves), widgets for one that links the widgets, plain for the rest.
function(sahaj_reuse_test_headers target)
    set(host sahaj_test_headers)
    foreach(lib ${ARGN})
        if(lib IN_LIST SAHAJ_TORCH_TEST_LIBS)
            set(host sahaj_torch_test_headers)
        elseif(lib IN_LIST SAHAJ_WIDGET_TEST_LIBS AND NOT host STREQUAL sahaj_torch_test_headers)
            set(host sahaj_widget_test_headers)
        endif()
    endforeach()
    if(TARGET ${host})
        target_precompile_headers(${target} REUSE_FROM ${host})
        # A test's moc output is included by its own source; the translation unit AUTOMOC adds is empty
        # and would only pay for loading the precompiled header.
        get_target_property(binary_dir ${target} BINARY_DIR)
        set_source_files_properties(${binary_dir}/${target}_autogen/mocs_compilation.cpp PROPERTIES
            SKIP_PRECOMPILE_HEADERS ON)
    endif()
endfunction()
