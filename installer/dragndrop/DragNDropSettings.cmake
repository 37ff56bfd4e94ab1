# The macOS disk image (cpack -G DragNDrop on macOS). Untested: no macOS machine builds Sahaj yet
# (docs/installing.md says what is missing). The disk image holds what `cmake --install` puts under its
# prefix; a drag-and-drop install wants sahaj-volunteer built as an app bundle (MACOSX_BUNDLE) with Qt
# and libtorch inside it (macdeployqt), which these settings do not do.
set(CPACK_PACKAGE_FILE_NAME "Sahaj-${CPACK_PACKAGE_VERSION}-macos")
set(CPACK_DMG_VOLUME_NAME Sahaj)
set(CPACK_DMG_FORMAT UDZO) # compressed, read-only
# Without a licence agreement the image opens straight away.
set(CPACK_DMG_SLA_USE_RESOURCE_FILE_LICENSE OFF)
set(CPACK_PACKAGING_INSTALL_PREFIX /)
