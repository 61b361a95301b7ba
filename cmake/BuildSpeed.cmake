# Build time (issue 27): precompiled headers and unity builds. Neither changes what is compiled:
# a precompiled header is the same headers parsed once per target instead of once per file, and
# a unity build compiles a target's .cpp files in batches, each batch one translation unit.
#
# ADE_PCH (ON by default): every target of core/, ui/ and tests/ force-includes a precompiled
#   header of the system, Eigen, nlohmann/json and Qt headers it uses most (lists below). The
#   tests share two (one for the Qt-Widgets-free tests, one for those that link ade_ui) through
#   REUSE_FROM, so 45 test programs parse Qt Test once each way. Project headers are never
#   precompiled: an edit to one rebuilds what includes it, as before.
# ADE_UNITY (ON by default): core/ and ui/ are compiled in batches of ADE_UNITY_BATCH files
#   (ade_unity below). The kernels (*Kernels.cpp, compiled once per instruction-set level) are
#   never batched, so they are optimised exactly as the benchmarks measure them. A cold Release
#   build of core/ and ui/ takes 297 s instead of 485 s (339f903's sources, 2-core AMD EPYC guest);
#   an edit recompiles its whole batch, so while editing one file many times -DADE_UNITY=OFF
#   rebuilds faster.
option(ADE_PCH "Precompiled headers for the system, Eigen, JSON and Qt headers" ON)
option(ADE_UNITY "Unity build of core/ and ui/ (batches of ADE_UNITY_BATCH files)" ON)
set(ADE_UNITY_BATCH 12 CACHE STRING "Files per translation unit in a unity build")

set(ADE_PCH_STD <algorithm> <atomic> <chrono> <cmath> <cstdint> <cstring> <filesystem>
    <fstream> <functional> <map> <memory> <mutex> <optional> <set> <sstream> <string>
    <thread> <vector>)
set(ADE_PCH_CORE ${ADE_PCH_STD} <Eigen/Dense> <nlohmann/json.hpp>)
set(ADE_PCH_QT_CORE <QString> <QStringList> <QObject> <QDir> <QFileInfo> <QFile> <QTimer>
    <QElapsedTimer> <QTemporaryDir>)
set(ADE_PCH_QT_WIDGETS <QWidget> <QApplication> <QPainter> <QImage> <QFontMetricsF> <QLabel>
    <QVBoxLayout> <QHBoxLayout> <QFormLayout> <QComboBox> <QPushButton> <QCheckBox> <QSpinBox>
    <QLineEdit> <QAction> <QMenu> <QMessageBox> <QFileDialog> <QStatusBar> <QTabWidget>
    <QHeaderView> <QDialog> <QDialogButtonBox> <QToolTip> <QChart> <QChartView> <QLineSeries>
    <QValueAxis> <QLogValueAxis>)

# clang stamps a precompiled header with its inputs' times, which a cached (ccache) header copied
# into another build folder would fail; GCC's .gch carries none.
if(ADE_PCH AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  add_compile_options("SHELL:-Xclang -fno-pch-timestamp")
  # CMake passes clang the PCH and its header, "-Xclang -include -Xclang /abs/cmake_pch.hxx";
  # ccache cannot make a path behind -Xclang relative to its base dir, so that absolute path
  # made every file that uses a PCH a miss in any other clone. The PCH alone holds the header.
  set(CMAKE_CXX_COMPILE_OPTIONS_USE_PCH -Xclang -include-pch -Xclang <PCH_FILE>)
endif()

# The linker: GNU ld took 3.4 s to link one test program in the ASan tree and 1.3 s for the
# Release CLI; lld links them in 0.9 s and 0.33 s, gold in 1.8 s and 0.44 s (2-core AMD EPYC guest,
# at 902e872). A CI run links about 300 programs. The sanitizer trees use lld, which scripts/test
# and scripts/fuzz install for them (gold warns on every ASan object, and a gold-linked TSan
# program dies in TSan's runtime, "SEGV on unknown address", when started with a file-size limit:
# tst_files' full-disk case); the Release and package trees use gold, part of binutils
# (build-essential), so the README's build needs no extra package. The linker changes no object
# file. ADE_LINKER=default keeps the compiler's own choice.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR ADE_SANITIZER)
  set(ade_linker_default lld)
else()
  set(ade_linker_default gold)
endif()
set(ADE_LINKER ${ade_linker_default} CACHE STRING "Linker for -fuse-ld= (lld, gold, mold, or default)")
if(NOT ADE_LINKER STREQUAL "default")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=${ADE_LINKER}" ADE_HAVE_LINKER_${ADE_LINKER})
  if(ADE_HAVE_LINKER_${ADE_LINKER})
    add_link_options(-fuse-ld=${ADE_LINKER})
  else()
    message(STATUS "ADE_LINKER=${ADE_LINKER} is not available here; linking with the compiler's default")
  endif()
endif()

# What a precompiled header holds beyond the command lines of the files that use it: the system
# headers it was made of, in the versions Debian installed. ccache (scripts/setup sets
# CCACHE_PCH_EXTSUM) hashes <pch>.sum, written here, instead of the PCH itself: a PCH embeds the
# absolute path of its build folder, so hashing it made every file that uses one a cache miss in
# any other clone (the sanitizer trees of each CI clone recompiled from scratch). The files'
# own flags, definitions and sources are hashed by ccache as always.
set(ade_pch_packages "")
find_program(ADE_DPKG_QUERY dpkg-query)
if(ADE_DPKG_QUERY)
  execute_process(COMMAND ${ADE_DPKG_QUERY} -W -f "\${Package} \${Version};"
                          qt6-base-dev qt6-charts-dev libeigen3-dev nlohmann-json3-dev
                          libstdc++-12-dev libc6-dev
                  OUTPUT_VARIABLE ade_pch_packages ERROR_QUIET)
endif()

# ade_pch(TARGET HEADERS...): TARGET's precompiled header of HEADERS, with its .sum beside it.
function(ade_pch target)
  target_precompile_headers(${target} PRIVATE ${ARGN})
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(ext pch)
  else()
    set(ext gch)
  endif()
  string(SHA256 sum "${ARGN}|${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}|${ade_pch_packages}")
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/cmake_pch.hxx.${ext}.sum "${sum}\n")
endfunction()

# ade_precompile(TARGET core|ui): the target's own precompiled header.
function(ade_precompile target kind)
  if(NOT ADE_PCH)
    return()
  endif()
  if(kind STREQUAL "core")
    ade_pch(${target} ${ADE_PCH_CORE})
  elseif(kind STREQUAL "ui")
    ade_pch(${target} ${ADE_PCH_CORE} ${ADE_PCH_QT_CORE} ${ADE_PCH_QT_WIDGETS})
  else()
    message(FATAL_ERROR "ade_precompile: kind is core or ui, not ${kind}")
  endif()
endfunction()

# ade_unity(TARGET): compile TARGET's sources in batches when ADE_UNITY is on. The batches are
# written here rather than by CMake's UNITY_BUILD, whose batch files include each source by its
# absolute path: two clones of the tree (CI's and a developer's, or two CI runs) then never share
# a compiled batch through ccache, and every sanitizer build was cold. Ours include the sources by
# their path relative to the batch file, so a batch is the same text in every clone. A batch is
# the next ADE_UNITY_BATCH of the target's .cpp files in their order (as CMake would make them);
# SKIP_UNITY_BUILD_INCLUSION keeps a file out. The batching runs when the calling directory has
# been read (cmake_language DEFER), so properties set after the call count.
function(ade_unity target)
  if(ADE_UNITY)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL ade_unity_batches [[${target}]])")
  endif()
endfunction()

function(ade_unity_write target index content)
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${target}_unity/unity_${index}.cxx)
  # Written only when its text changes (configure_file's rule), so a reconfigure rebuilds nothing.
  file(CONFIGURE OUTPUT ${file} CONTENT "// Unity batch ${index} of ${target} (cmake/BuildSpeed.cmake).\n${content}" @ONLY)
  target_sources(${target} PRIVATE ${file})
endfunction()

function(ade_unity_batches target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(batch_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_unity)
  set(content "")
  set(count 0)
  set(index 0)
  foreach(source IN LISTS sources)
    if(source MATCHES "^\\$<" OR NOT source MATCHES "\\.cpp$")
      continue()  # generator expressions (the kernels' objects), headers, resources
    endif()
    if(NOT IS_ABSOLUTE "${source}")
      set(source ${source_dir}/${source})
    endif()
    get_source_file_property(skip ${source} SKIP_UNITY_BUILD_INCLUSION)
    get_source_file_property(generated ${source} GENERATED)
    if(skip OR generated)
      continue()
    endif()
    file(RELATIVE_PATH relative ${batch_dir} ${source})
    string(APPEND content "#include \"${relative}\"\n")
    set_source_files_properties(${source} PROPERTIES HEADER_FILE_ONLY ON)
    math(EXPR count "${count} + 1")
    if(count EQUAL ADE_UNITY_BATCH)
      ade_unity_write(${target} ${index} "${content}")
      math(EXPR index "${index} + 1")
      set(content "")
      set(count 0)
    endif()
  endforeach()
  if(count GREATER 0)
    ade_unity_write(${target} ${index} "${content}")
  endif()
endfunction()

# ade_test_pch(TARGET LIBS...): TARGET reuses the precompiled header every test program of its
# kind shares (the kind is "ui" when LIBS names ade_ui). With Qt Test's per-folder macros gone
# (ade_relocatable_qt_test below) the test programs of all folders have the same flags. The two
# donor targets are made on first use; each compiles one empty file with exactly those flags.
function(ade_test_pch target)
  if(NOT ADE_PCH)
    return()
  endif()
  set(kind core)
  if("ade_ui" IN_LIST ARGN)
    set(kind ui)
  endif()
  set(donor ade_test_pch_${kind})
  if(NOT TARGET ${donor})
    set(src ${CMAKE_BINARY_DIR}/${donor}.cpp)
    if(NOT EXISTS ${src})
      file(WRITE ${src} "// The tests' precompiled header is built with this file's flags.\n")
    endif()
    add_library(${donor} STATIC ${src})
    target_include_directories(${donor} PRIVATE ${ADE_TEST_COMMON_DIR})
    if(kind STREQUAL "ui")
      target_link_libraries(${donor} PRIVATE ade_core Qt6::Test ade_ui)
      ade_pch(${donor} ${ADE_PCH_CORE} <QtTest> <QSignalSpy> ${ADE_PCH_QT_CORE}
              ${ADE_PCH_QT_WIDGETS})
    else()
      target_link_libraries(${donor} PRIVATE ade_core Qt6::Test)
      ade_pch(${donor} ${ADE_PCH_CORE} <QtTest> <QSignalSpy> ${ADE_PCH_QT_CORE})
    endif()
  endif()
  target_precompile_headers(${target} REUSE_FROM ${donor})
endfunction()

# ade_relocatable_qt_test(): Qt Test puts each test program's absolute source and build folders
# on its compile line (QT_TESTCASE_SOURCEDIR and QT_TESTCASE_BUILDDIR, read only by
# QFINDTESTDATA), so no two clones of the tree could share a compiled test or test header through
# ccache: its base dir rewrites paths, not macro values. The fresh root's build and the host's
# build of the same commit missed on every test object (half the steps). The definitions are
# dropped from Qt6::Test; a test finds its data through ADE_TEST_SOURCE_DIR, which ctest sets.
function(ade_relocatable_qt_test)
  get_target_property(defs Qt6::Test INTERFACE_COMPILE_DEFINITIONS)
  if(defs)
    list(FILTER defs EXCLUDE REGEX "^QT_TESTCASE_(SOURCE|BUILD)DIR=")
    set_target_properties(Qt6::Test PROPERTIES INTERFACE_COMPILE_DEFINITIONS "${defs}")
  endif()
endfunction()

# moc without include paths (replacing AUTOMOC in ui/ and qt6_generate_moc's TARGET in tests/).
# moc preprocesses every file a header includes when given the target's include paths: Qt's,
# Eigen's and core's headers, about 1 s of CPU per header, which CMake's AUTOMOC ran again in each
# build tree and no compiler cache keeps (ui/: 57 headers, about 24 s of wall time per tree on 2
# cores; tests/: 41 files, 1-2 s each). Without include paths moc reads the one file; for all 57
# ui headers and 41 test files its output is the same text bar the header comment (checked at
# 3f3a166 with diff). Headers without Q_OBJECT get an empty file.
# ade_moc_command(SOURCE OUTPUT): one rule, SOURCE -> OUTPUT, rerun when SOURCE changes.
function(ade_moc_command source output)
  get_filename_component(name ${source} NAME)
  add_custom_command(OUTPUT ${output}
                     COMMAND Qt6::moc -nn ${source} -o ${output}
                     DEPENDS ${source} Qt6::moc
                     COMMENT "moc ${name}" VERBATIM)
endfunction()

# ade_moc(TARGET HEADERS...): every header through moc, all outputs compiled as one translation
# unit (TARGET_mocs/mocs.cpp, never in a unity batch), as AUTOMOC's mocs_compilation.cpp did.
function(ade_moc target)
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_mocs)
  set(outputs "")
  set(content "")
  foreach(header IN LISTS ARGN)
    if(NOT header MATCHES "\\.h$")
      continue()
    endif()
    file(RELATIVE_PATH relative ${CMAKE_CURRENT_SOURCE_DIR} ${header})
    string(REGEX REPLACE "\\.h$" ".cpp" relative "${relative}")
    string(REPLACE "/" "_" flat "moc_${relative}")
    ade_moc_command(${header} ${out_dir}/${flat})
    list(APPEND outputs ${out_dir}/${flat})
    string(APPEND content "#include \"${flat}\"\n")
  endforeach()
  set(unit ${out_dir}/mocs.cpp)
  file(CONFIGURE OUTPUT ${unit} CONTENT "// moc output of ${target}'s headers (cmake/BuildSpeed.cmake: ade_moc).\n${content}" @ONLY)
  target_sources(${target} PRIVATE ${unit})
  set_source_files_properties(${unit} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON
                              OBJECT_DEPENDS "${outputs}")
endfunction()
