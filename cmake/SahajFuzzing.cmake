# Compiler settings of the fuzz build (-DSAHAJ_FUZZ=ON, docs/fuzzing.md), included before core/ so that
# every first-party object carries them.
#
# libFuzzer is part of clang; gcc has no equivalent. Debian's libtorch and Qt are built with gcc against
# libstdc++, which clang uses too, so they link unchanged (uninstrumented).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SAHAJ_FUZZ needs clang (configure with -DCMAKE_CXX_COMPILER=clang++); "
                        "this compiler is ${CMAKE_CXX_COMPILER_ID}")
endif()
if(SAHAJ_TORCH_ONLY)
    message(FATAL_ERROR "SAHAJ_FUZZ and SAHAJ_TORCH_ONLY exclude each other: the parsers need QtCore")
endif()

# AddressSanitizer and UndefinedBehaviorSanitizer turn silent memory errors and undefined behaviour into
# crashes libFuzzer reports; undefined behaviour stops the run (no recovery) so that it cannot pass
# unnoticed. fuzzer-no-link adds the coverage instrumentation libFuzzer steers by; the fuzz targets
# themselves link libFuzzer (-fsanitize=fuzzer, fuzz/CMakeLists.txt).
add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
