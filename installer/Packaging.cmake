# Install rules and CPack configuration of the packages (docs/installing.md): a .deb on Linux (built and
# tested by scripts/package-check.sh), with configurations for NSIS (Windows) and DragNDrop (macOS)
# alongside. Included at the end of the top-level CMakeLists.txt, once every target exists.
if(SAHAJ_TORCH_ONLY)
    return() # no executables to package
endif()

include(GNUInstallDirs)

set(sahaj_resources ${PROJECT_SOURCE_DIR}/resources)
set(sahaj_app_id org.sahaj.Sahaj)

# The app icon as a 256x256 PNG for launchers that read no SVG (and a .ico for the Windows installer),
# rendered from the one SVG source at build time with Qt Svg, the renderer the app itself uses, so that
# they never differ.
add_executable(sahaj-svg-to-png ${CMAKE_CURRENT_LIST_DIR}/svg-to-png/main.cpp)
target_link_libraries(sahaj-svg-to-png PRIVATE Qt6::Gui Qt6::Svg)
set(sahaj_icon_svg ${sahaj_resources}/icons/${sahaj_app_id}.svg)
set(sahaj_icon_png ${PROJECT_BINARY_DIR}/icons/256x256/${sahaj_app_id}.png)
set(sahaj_icon_ico ${PROJECT_BINARY_DIR}/icons/${sahaj_app_id}.ico)
add_custom_command(
    OUTPUT ${sahaj_icon_png} ${sahaj_icon_ico}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/icons/256x256
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen $<TARGET_FILE:sahaj-svg-to-png> ${sahaj_icon_svg}
            ${sahaj_icon_png} 256
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen $<TARGET_FILE:sahaj-svg-to-png> ${sahaj_icon_svg}
            ${sahaj_icon_ico} 256
    DEPENDS sahaj-svg-to-png ${sahaj_icon_svg}
    COMMENT "Rendering the app icon (PNG, ICO)"
    VERBATIM)
add_custom_target(sahaj-icons ALL DEPENDS ${sahaj_icon_png} ${sahaj_icon_ico})

# --- What the packages hold ---------------------------------------------------------------------------
# bin/sahaj-node is installed by app/node/CMakeLists.txt.
if(TARGET sahaj-volunteer)
    install(TARGETS sahaj-volunteer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# The demo run's data, so that `sahaj-node demo` works from the installed paths alone. Both are made by
# the build tree's scripts (scripts/demo-corpus.sh, `sahaj-node tokenizer-train`; package-check.sh makes
# them when they are missing); a package built without them simply has no demo data.
set(SAHAJ_DEMO_CORPUS_DIR ${PROJECT_BINARY_DIR}/data/demo-corpus
    CACHE PATH "Folder with the demo corpus (train.txt, sources.txt) to package")
set(SAHAJ_DEMO_TOKENIZER ${PROJECT_BINARY_DIR}/runs/tokenizer/tokenizer.json
    CACHE FILEPATH "tokenizer.json of the demo run to package")
install(FILES ${SAHAJ_DEMO_CORPUS_DIR}/train.txt ${SAHAJ_DEMO_CORPUS_DIR}/sources.txt ${SAHAJ_DEMO_TOKENIZER}
        DESTINATION ${CMAKE_INSTALL_DATADIR}/sahaj/demo OPTIONAL)

install(FILES ${PROJECT_SOURCE_DIR}/docs/installing.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/sahaj)

if(UNIX AND NOT APPLE)
    # Freedesktop integration: menu entry, software-centre metadata, icons.
    install(FILES ${sahaj_resources}/desktop/${sahaj_app_id}.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${sahaj_resources}/desktop/${sahaj_app_id}.metainfo.xml
            DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
    install(FILES ${sahaj_resources}/icons/${sahaj_app_id}.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
    install(FILES ${sahaj_icon_png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps)
    # The headless volunteer as a system service, one instance per run, and its example settings.
    # lib/systemd/system under the /usr prefix: where Debian's merged /usr keeps packaged units.
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/systemd/sahaj-node@.service DESTINATION lib/systemd/system)
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/systemd/sahaj-node.conf.example
            DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/sahaj/examples)
    # The licence (GPL-3.0-or-later, docs/dependencies.md) as Debian wants it: the machine-readable
    # copyright file in the package's doc folder, which points to the system's copy of the GPL.
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/deb/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/sahaj)
else()
    # Elsewhere no system copy of the GPL can be pointed to: its full text.
    install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/sahaj)
endif()

# Packaging installs what was built and builds nothing itself: `cmake --build` first (package-check.sh
# builds exactly the packaged targets), so that a package does not wait for every test and benchmark.
if(NOT DEFINED CMAKE_SKIP_INSTALL_ALL_DEPENDENCY)
    set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
endif()

# --- CPack: common ------------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME sahaj)
set(CPACK_PACKAGE_VENDOR "The Sahaj developers")
set(CPACK_PACKAGE_CONTACT "The Sahaj developers <maintainers@sahaj.invalid>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
# Line breaks kept: the .deb's control file shows the description as these lines.
set(CPACK_PACKAGE_DESCRIPTION
    "Sahaj lends the spare time of a computer to a collaborative training run:\n\
volunteers train one Bengali language model together over the internet, each\n\
on its share of every batch. The desktop app (sahaj-volunteer) sits in the\n\
system tray and shows what the computer contributes; sahaj-node is the\n\
headless volunteer, the run's coordinator and its tools.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY Sahaj)
# Shown by the installers that show one (NSIS's licence page); CPack's default is a placeholder text.
if(NOT DEFINED CPACK_RESOURCE_FILE_LICENSE)
    set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
endif()
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build[^/]*/" "/node_modules/")
if(NOT CPACK_GENERATOR)
    if(WIN32)
        set(CPACK_GENERATOR NSIS)
    elseif(APPLE)
        set(CPACK_GENERATOR DragNDrop)
    else()
        set(CPACK_GENERATOR DEB)
    endif()
endif()

# --- CPack: DEB ---------------------------------------------------------------------------------------
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # sahaj_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# dpkg-shlibdeps derives the libraries' packages from the binaries (libtorch, Qt, ZeroMQ, OpenDHT, ...).
# Added by hand what no binary links: the threaded OpenBLAS that Debian's libtorch picks at run time
# through the alternatives system (without it GEMM is about ten times slower), the Bengali font the
# translation needs, and Qt's platform plugins, which a Qt Widgets app loads instead of linking.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(sahaj_deb_depends "libopenblas0-pthread, fonts-lohit-beng-bengali")
if(TARGET sahaj-volunteer)
    string(APPEND sahaj_deb_depends ", qt6-qpa-plugins")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${sahaj_deb_depends}")
# spm_train, for `sahaj-node tokenizer-train` only.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS sentencepiece)
# Maintainer scripts: tell systemd about the unit, restart running instances on upgrade, stop them on removal.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/deb/postinst ${CMAKE_CURRENT_LIST_DIR}/deb/prerm
                                      ${CMAKE_CURRENT_LIST_DIR}/deb/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# --- CPack: NSIS and DragNDrop --------------------------------------------------------------------------
# Each generator's settings live in its own file, read by cpack when it runs that generator
# (installer/CPackProjectConfig.cmake).
set(CPACK_SAHAJ_INSTALLER_DIR ${CMAKE_CURRENT_LIST_DIR})
set(CPACK_SAHAJ_RESOURCES_DIR ${sahaj_resources})
set(CPACK_SAHAJ_ICON_ICO ${sahaj_icon_ico})
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/CPackProjectConfig.cmake)

include(CPack)
