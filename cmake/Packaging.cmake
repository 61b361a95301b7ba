# `cpack -G DEB` in a build tree makes dist/attention-explorer_<version>_<arch>.deb (see
# scripts/package, which builds a portable tree for it: no -march=native (the kernels for every
# x86-64 level, chosen at run time: core/CMakeLists.txt), no tests).
# The shared-library dependencies are computed by dpkg-shlibdeps from the installed programs;
# only what no ELF file names is listed by hand: Qt's platform plugins (xcb, offscreen), which Qt
# loads at run time, never through the dynamic linker (on Debian 12 they are in qt6-qpa-plugins;
# the SVG icon and image plugins come with libqt6svg6, which dpkg-shlibdeps finds).
set(CPACK_PACKAGE_NAME attention-explorer)
set(CPACK_PACKAGE_VENDOR "The Attention Dynamics Explorer developers")
set(CPACK_PACKAGE_CONTACT "The Attention Dynamics Explorer developers <attention-explorer@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch softmax attention learn: live training dynamics")
set(CPACK_PACKAGE_DESCRIPTION
  "An explorer for teaching, studying and tuning the training of attention models: softmax
self-attention on linear regression (spectral initialisation, balancing regulariser,
preconditioner, manifold of global minima, data-compute scaling) and stochastic (Langevin)
training of attention and LoRA under weak regularisers, with live charts, comparisons,
sessions and publication-quality exports. attention-explorer-cli runs the same experiments
and renders the same figures headless.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_INSTALL_DIRECTORY /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY "${CMAKE_SOURCE_DIR}/dist")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# ffmpeg: MP4 and GIF animations; python3-numpy: the Python module attention_explorer (in
# /usr/lib/python3/dist-packages when the tree builds it, python/CMakeLists.txt), whose results
# are NumPy arrays; python3-pandas: its DataFrames.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core, ffmpeg, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xvfb, python3-pandas, python3-optuna, python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
