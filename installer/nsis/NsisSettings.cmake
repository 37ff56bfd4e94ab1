# The Windows installer (cpack -G NSIS on Windows, with NSIS 3 installed). Untested: no Windows machine
# builds Sahaj yet (docs/installing.md says what is missing). The Qt and libtorch DLLs must sit beside the
# executables before packaging (windeployqt, and libtorch's lib folder); these settings do not copy them.
set(CPACK_PACKAGE_FILE_NAME "Sahaj-${CPACK_PACKAGE_VERSION}-win64")
set(CPACK_PACKAGE_INSTALL_DIRECTORY Sahaj)
set(CPACK_PACKAGE_INSTALL_REGISTRY_KEY Sahaj)
set(CPACK_NSIS_PACKAGE_NAME "Sahaj ${CPACK_PACKAGE_VERSION}")
set(CPACK_NSIS_DISPLAY_NAME Sahaj)
# A Start menu entry and a desktop shortcut for the app (not for sahaj-node, a console tool).
set(CPACK_PACKAGE_EXECUTABLES sahaj-volunteer Sahaj)
set(CPACK_CREATE_DESKTOP_LINKS sahaj-volunteer)
set(CPACK_NSIS_EXECUTABLES_DIRECTORY bin)
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\sahaj-volunteer.exe")
set(CPACK_NSIS_MUI_ICON "${CPACK_SAHAJ_ICON_ICO}")
set(CPACK_NSIS_MUI_UNIICON "${CPACK_SAHAJ_ICON_ICO}")
set(CPACK_NSIS_MUI_FINISHPAGE_RUN sahaj-volunteer.exe)
# Replace an older version in place instead of installing a second copy beside it.
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MODIFY_PATH OFF)
set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)
set(CPACK_NSIS_UNINSTALL_NAME "Uninstall Sahaj")
