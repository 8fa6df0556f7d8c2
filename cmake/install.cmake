# install.cmake - convis installed like any program, and its Debian package
# (included from CMakeLists.txt, after the convis target and the catalogues).
#
# `cmake --install build --prefix /usr` (DESTDIR=... to stage it) puts:
#   bin/convis
#   share/convis/{shaders,assets,lessons,records,lab}   what convis loads at run time (lab: the kernel lab's starters)
#   share/locale/LANG/LC_MESSAGES/convis.mo         the catalogues (CMakeLists.txt)
#   share/applications/convis.desktop               "Open with convis" in file managers
#   share/metainfo/ID.metainfo.xml                  software centres (AppStream)
#   share/icons/hicolor/{NxN,scalable}/apps/convis.{png,svg}
#   share/man/man1/convis.1.gz, share/man/zh_CN/man1/convis.1.gz
#   share/doc/convis/README.md
# convis finds its files from where it is: PREFIX/bin/../share/convis, and the
# catalogues beside it in share/locale (src/app/data.c, src/app/i18n.c), so
# bin and share stay siblings here (not GNUInstallDirs' settable folders) and
# an installed convis never reads the tree it was built from.
# `cpack -G DEB` in the build folder (or the `package` target) makes
# convis_VERSION-1_ARCH.deb of the same files under /usr. test_install
# (tests/unit/test_install.sh) checks all of it.

# The AppStream id: reverse DNS, as AppStream asks. The project has no domain
# of its own; this one is kept once chosen (a new id needs the old one in
# <provides>).
set(CONVIS_APP_ID io.github.convis.convis)
# The date of the release of PROJECT_VERSION (the man pages, the metainfo):
# set with the version in project().
set(CONVIS_RELEASE_DATE 2026-12-02)

install(TARGETS convis RUNTIME DESTINATION bin)
install(DIRECTORY shaders lessons records lab DESTINATION share/convis)
install(DIRECTORY assets DESTINATION share/convis PATTERN "*.sh" EXCLUDE) # the images, not their maker
install(FILES data/convis.desktop DESTINATION share/applications)
configure_file(data/convis.metainfo.xml.in ${CMAKE_BINARY_DIR}/data/${CONVIS_APP_ID}.metainfo.xml @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/data/${CONVIS_APP_ID}.metainfo.xml DESTINATION share/metainfo)
# drawn by hand as SVG; the PNGs made from it by data/icons/make_icons.sh, committed
install(DIRECTORY data/icons/hicolor DESTINATION share/icons)
install(FILES README.md DESTINATION share/doc/convis)

# The manual pages, made by the build from `convis --lang LANG --help` and
# data/man/convis.LANG.1.in (data/man/make_man.sh), so the options in them
# are the program's own. Chinese where the catalogues are built.
set(convis_man_langs en)
if(CONVIS_HAVE_NLS)
  list(APPEND convis_man_langs zh)
endif()
set(convis_man_pages)
foreach(lang ${convis_man_langs})
  set(page ${CMAKE_BINARY_DIR}/man/${lang}/convis.1)
  set(deps convis ${CMAKE_SOURCE_DIR}/data/man/make_man.sh ${CMAKE_SOURCE_DIR}/data/man/convis.${lang}.1.in)
  if(CONVIS_HAVE_NLS)
    list(APPEND deps convis_catalogues)
  endif()
  add_custom_command(OUTPUT ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man/${lang}
    COMMAND bash ${CMAKE_SOURCE_DIR}/data/man/make_man.sh $<TARGET_FILE:convis>
      ${CMAKE_SOURCE_DIR}/data/man/convis.${lang}.1.in ${lang} ${PROJECT_VERSION} ${CONVIS_RELEASE_DATE} ${page}
    COMMAND gzip -n -9 -f ${page}
    DEPENDS ${deps} VERBATIM)
  list(APPEND convis_man_pages ${page}.gz)
endforeach()
add_custom_target(convis_man ALL DEPENDS ${convis_man_pages})
install(FILES ${CMAKE_BINARY_DIR}/man/en/convis.1.gz DESTINATION share/man/man1)
if(CONVIS_HAVE_NLS)
  install(FILES ${CMAKE_BINARY_DIR}/man/zh/convis.1.gz DESTINATION share/man/zh_CN/man1)
endif()

# ---- the Debian package (CPack) ----------------------------------------------------
# Its dependencies are what dpkg-shlibdeps finds the binary linked with (SDL2,
# SDL2_ttf, fontconfig, GLEW, OpenGL, libyaml, giflib, the C and C++
# libraries), and the fonts the window draws its words in. CUDA's runtime is
# linked statically (CUDA::cudart_static), so no CUDA package is needed: the
# driver's libcuda.so.1 is opened at run time where there is one, and without
# it the cuda engine says why it is unavailable (`convis engines`).
set(CONVIS_DEB_MAINTAINER "" CACHE STRING
    "The Debian package's maintainer, \"Name <email>\" (empty: $DEBFULLNAME <$DEBEMAIL>, else the convis maintainers)")
if(CONVIS_DEB_MAINTAINER)
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CONVIS_DEB_MAINTAINER}")
elseif(DEFINED ENV{DEBFULLNAME} AND DEFINED ENV{DEBEMAIL})
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "$ENV{DEBFULLNAME} <$ENV{DEBEMAIL}>")
else()
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "convis maintainers <maintainers@convis.invalid>")
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME convis)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see a 3x3 convolution computed on the CPU and on the GPU")
set(CPACK_PACKAGE_DESCRIPTION "\
convis shows how a 3x3 convolution is computed, and why and when a GPU
computes it faster. A window walks a 3x3 filter over an image one output
at a time on the CPU, with the nine products and their sum; then it
launches the same convolution on the GPU, and every output appears at
once. Beside both are timings measured on the machine in front of you.
Nine lessons, in English and Chinese, walk a learner through the ideas.

It computes on the CPU, on a GPU with OpenGL 4.3 through compute
shaders, and on NVIDIA GPUs through CUDA, which needs NVIDIA's driver.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core") # the window's Latin words (fontconfig finds it)
# its Chinese words; and EGL, which SDL opens at run time to draw without a
# display (--screenshot, --gif, apply --engine gl on a server) and on Wayland
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, libegl1")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build/" "/build-[^/]*/" "/\\\\.gl/" "/\\\\.deps/")
include(CPack)
