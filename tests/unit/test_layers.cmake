# The layers, held at compile time (docs/ARCHITECTURE.md, section 1; the
# include roots in CMakeLists.txt). For each library, a file that includes a
# header of a layer it may use compiles with that library's include
# directories, and one that includes a layer it may not use fails, for the
# header not being found; so the test cannot pass for a compiler that fails
# on everything. Then no source under src/ reaches past the roots with a
# relative include ("../"), but the view's files (src/app/view/) to the app's
# headers and compute's to the CUDA kernels (kernels/). And no source under
# src/ reads CONVIS_CUDA_MOCK: each is compiled once, and the CUDA stand-in
# links the same objects as the real engines.
# Usage: cmake -DCC=COMPILER -DSOURCE_DIR=DIR -DWORK=DIR -DTARGETS="T;..."
#          -DDIRS_<T>="DIR;..." (each target's include directories) -P test_layers.cmake
cmake_minimum_required(VERSION 3.20)

# target | header | compiles or fails
set(probes
  "convis_core|core/image.h|compiles"
  "convis_core|compute/engine.h|fails"
  "convis_core|app/scene.h|fails"
  "convis_core|scene.h|fails"
  "convis_compute|compute/engine.h|compiles"
  "convis_compute|core/conv.h|compiles"
  "convis_compute|render/render.h|fails"
  "convis_compute|platform/platform.h|fails"
  "convis_compute|lesson/lesson.h|fails"
  "convis_compute|scene.h|fails"
  "convis_render|render/render.h|compiles"
  "convis_render|compute/engine.h|fails"
  "convis_render|platform/platform.h|fails"
  "convis_platform|platform/platform.h|compiles"
  "convis_platform|render/render.h|fails"
  "convis_platform|compute/engine.h|fails"
  "convis_lesson|lesson/player.h|compiles"
  "convis_lesson|compute/engine.h|fails"
  "convis_lesson|render/render.h|fails"
  "convis_model|scene.h|compiles"
  "convis_model|lesson/player.h|compiles"
  "convis_model|render/render.h|fails"
  "convis_model|platform/platform.h|fails"
  "convis_model|frame.h|fails:platform/platform.h"
  "convis_gif|core/image.h|compiles"
  "convis_gif|compute/engine.h|fails"
  "convis_app_objects|frame.h|compiles"
  "convis_app_objects|render/text.h|compiles"
  "convis_compute_objects|compute/engine.h|compiles"
  "convis_compute_objects|lesson/lesson.h|fails"
  "convis_model_objects|scene.h|compiles"
  "convis_model_objects|render/render.h|fails"
  "test_app_objects|scene.h|compiles"
  "test_app_objects|platform/platform.h|fails"
  "convis_compute_mock|compute/engine.h|compiles"
  "convis_compute_mock|scene.h|fails"
  "convis_model_mock|scene.h|compiles"
  "convis_model_mock|platform/platform.h|fails")

file(MAKE_DIRECTORY ${WORK})
set(failures 0)
set(checked 0)
foreach(probe ${probes})
  string(REPLACE "|" ";" fields "${probe}")
  list(GET fields 0 target)
  list(GET fields 1 header)
  list(GET fields 2 expect)
  if(NOT target IN_LIST TARGETS)
    continue() # a target this build does not make (the stand-ins need CUDA's headers)
  endif()
  set(missing ${header})
  if(expect MATCHES "^fails:(.*)$") # the header is found, but what it includes is not
    set(missing ${CMAKE_MATCH_1})
    set(expect fails)
  endif()
  set(flags)
  foreach(dir ${DIRS_${target}})
    list(APPEND flags -I${dir})
  endforeach()
  string(MAKE_C_IDENTIFIER "${target}_${header}" name)
  file(WRITE ${WORK}/${name}.c "#include \"${header}\"\n")
  execute_process(COMMAND ${CC} -std=c11 -fsyntax-only ${flags} ${WORK}/${name}.c
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  math(EXPR checked "${checked} + 1")
  if(expect STREQUAL "compiles")
    if(rc EQUAL 0)
      message(STATUS "ok - ${target} includes \"${header}\"")
    else()
      message(STATUS "not ok - ${target} cannot include \"${header}\", which its layer may: ${out}")
      math(EXPR failures "${failures} + 1")
    endif()
  else()
    string(FIND "${out}" "${missing}" named)
    if(NOT rc EQUAL 0 AND named GREATER_EQUAL 0 AND out MATCHES "No such file|not found")
      message(STATUS "ok - ${target} cannot include \"${header}\" (\"${missing}\" not found)")
    elseif(rc EQUAL 0)
      message(STATUS "not ok - ${target} includes \"${header}\", a layer it may not use")
      math(EXPR failures "${failures} + 1")
    else()
      message(STATUS "not ok - ${target} with \"${header}\" fails, but not for \"${missing}\" missing: ${out}")
      math(EXPR failures "${failures} + 1")
    endif()
  endif()
endforeach()
if(checked LESS 20)
  message(STATUS "not ok - only ${checked} probes ran; the targets given: ${TARGETS}")
  math(EXPR failures "${failures} + 1")
endif()

# Relative includes reach any folder, whatever the roots say.
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/src/*.c ${SOURCE_DIR}/src/*.h)
set(relative 0)
foreach(source ${sources})
  file(STRINGS ${SOURCE_DIR}/${source} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"\\.\\./")
  foreach(line ${lines})
    string(REGEX REPLACE ".*\"([^\"]*)\".*" "\\1" path "${line}")
    if(source MATCHES "^src/app/view/" AND path MATCHES "^\\.\\./[^/]+\\.h$")
      continue() # the view, in the app, to the app's headers
    endif()
    if(source MATCHES "^src/compute/" AND path MATCHES "^\\.\\./\\.\\./kernels/[^/]+\\.h$")
      continue() # compute, to the CUDA kernels' launchers and bodies
    endif()
    message(STATUS "not ok - ${source} includes \"${path}\", past its include roots")
    math(EXPR relative "${relative} + 1")
  endforeach()
endforeach()
if(relative EQUAL 0)
  message(STATUS "ok - no source under src/ includes past its roots with \"../\"")
endif()
math(EXPR failures "${failures} + ${relative}")

# The objects compiled once serve the real build and the stand-in alike.
set(mock_readers 0)
foreach(source ${sources})
  file(STRINGS ${SOURCE_DIR}/${source} lines REGEX "CONVIS_CUDA_MOCK")
  if(lines)
    message(STATUS "not ok - ${source} reads CONVIS_CUDA_MOCK, but is compiled once for the real engines and the stand-in")
    math(EXPR mock_readers "${mock_readers} + 1")
  endif()
endforeach()
if(mock_readers EQUAL 0)
  message(STATUS "ok - no source under src/ reads CONVIS_CUDA_MOCK")
endif()
math(EXPR failures "${failures} + ${mock_readers}")

if(failures GREATER 0)
  message(FATAL_ERROR "test_layers: ${failures} failed of ${checked} probes and the relative includes")
endif()
message(STATUS "test_layers: ${checked} probes, every one as its layer says")
