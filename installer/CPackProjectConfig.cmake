# Read by cpack before it runs each generator, with CPACK_GENERATOR naming that generator: what only one
# generator uses, or what differs between them, lives in that generator's folder.
if(CPACK_GENERATOR STREQUAL "NSIS")
    include(${CPACK_SAHAJ_INSTALLER_DIR}/nsis/NsisSettings.cmake)
elseif(CPACK_GENERATOR STREQUAL "DragNDrop")
    include(${CPACK_SAHAJ_INSTALLER_DIR}/dragndrop/DragNDropSettings.cmake)
endif()
