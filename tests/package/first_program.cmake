# The README's first program, built from an installed sinew the two ways the
# README shows (issue #17): through pkg-config and through find_package(sinew)
# in a tiny CMake project. Both must print what the in-tree
# example_01_sample_blend prints (the same computation, built with the
# project); the installed CMake package must name no library of the build
# machine by its path (assimp and ODE are found through pkg-config), and the
# shared runtime must export what the installed static libraries call.
#
#   cmake -DSOURCE_DIR=... -DBUILD_DIR=... -DWORK_DIR=... -DEXAMPLE=... -P first_program.cmake
cmake_minimum_required(VERSION 3.20)

foreach(var SOURCE_DIR BUILD_DIR WORK_DIR EXAMPLE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "first_program.cmake needs -D${var}=...")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

# The first fenced block of `lang` after `heading` whose text contains `needle`.
function(readme_block out heading lang needle)
  file(READ ${SOURCE_DIR}/README.md text)
  string(FIND "${text}" "${heading}" at)
  if(at LESS 0)
    message(FATAL_ERROR "README.md has no \"${heading}\"")
  endif()
  string(SUBSTRING "${text}" ${at} -1 text)
  while(TRUE)
    string(FIND "${text}" "```${lang}\n" start)
    if(start LESS 0)
      message(FATAL_ERROR "README.md has no ```${lang} block with \"${needle}\" after \"${heading}\"")
    endif()
    string(LENGTH "```${lang}\n" fence)
    math(EXPR start "${start} + ${fence}")
    string(SUBSTRING "${text}" ${start} -1 text)
    string(FIND "${text}" "```" end)
    string(SUBSTRING "${text}" 0 ${end} block)
    string(SUBSTRING "${text}" ${end} -1 text)
    string(FIND "${block}" "${needle}" has)
    if(has GREATER_EQUAL 0)
      set(${out} "${block}" PARENT_SCOPE)
      return()
    endif()
  endwhile()
endfunction()

# LeftHand's three coordinates as printed with %.4f (either program's format).
function(hand_position out text)
  string(REGEX MATCH "(-?[0-9]+\\.[0-9]+)[ ,]+(-?[0-9]+\\.[0-9]+)[ ,]+(-?[0-9]+\\.[0-9]+)" m "${text}")
  if(NOT m)
    message(FATAL_ERROR "no position in: ${text}")
  endif()
  set(${out} "${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3}" PARENT_SCOPE)
endfunction()

set(bvh /usr/share/assimp/models/BVH/01_01.bvh)
if(NOT EXISTS ${bvh})
  message("SKIP: ${bvh} is missing (Debian assimp-testmodels)")
  return()
endif()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# The installed CMake package names libraries by target, never by path.
file(GLOB targets_files ${prefix}/lib*/cmake/sinew/sinewTargets*.cmake ${prefix}/lib/*/cmake/sinew/sinewTargets*.cmake)
foreach(f ${targets_files})
  file(STRINGS ${f} links REGEX "INTERFACE_LINK_LIBRARIES")
  foreach(line ${links})
    if(line MATCHES "\"[^\"]*/")
      message(FATAL_ERROR "${f} links a library by its path: ${line}")
    endif()
  endforeach()
endforeach()

# A program linked through pkg-config gets the shared runtime: every sinew
# symbol the installed static libraries call must be exported by it (or be
# defined in one of them).
file(GLOB shared_runtime ${prefix}/lib*/libsinew.so ${prefix}/lib/*/libsinew.so)
file(GLOB static_libs ${prefix}/lib*/libsinew_*.a ${prefix}/lib/*/libsinew_*.a)
run("nm -D" nm -D --defined-only ${shared_runtime})
set(defined "${run_out}")
run("nm" nm --defined-only ${static_libs})
string(APPEND defined "${run_out}")
run("nm -u" nm -u ${static_libs})
string(REGEX MATCHALL "U sw[A-Za-z0-9_]*" needed "${run_out}")
list(REMOVE_DUPLICATES needed)
foreach(u ${needed})
  string(SUBSTRING "${u}" 2 -1 name)
  if(NOT defined MATCHES " [A-Za-z] ${name}\n")
    message(FATAL_ERROR "${name}: called by an installed static library, not exported by ${shared_runtime}")
  endif()
endforeach()

readme_block(program "## A first program" c "int main")
readme_block(pc_line "## Using it from CMake or pkg-config" sh "pkg-config")
readme_block(cmake_project "## Using it from CMake or pkg-config" cmake "find_package(sinew")
string(STRIP "${pc_line}" pc_line)

run("${EXAMPLE}" ${EXAMPLE} ${bvh} LeftHand)
hand_position(expected "${run_out}")
message("example_01_sample_blend: LeftHand ${expected}")

file(GLOB pc_dirs ${prefix}/lib*/pkgconfig ${prefix}/lib/*/pkgconfig)
file(GLOB lib_dirs ${prefix}/lib* ${prefix}/lib/*)
string(REPLACE ";" ":" pc_path "${pc_dirs}")
string(REPLACE ";" ":" ld_path "${lib_dirs}")
set(ENV{PKG_CONFIG_PATH} "${pc_path}")
set(ENV{LD_LIBRARY_PATH} "${ld_path}")

# 1. pkg-config: the README's line, warnings as errors.
file(WRITE ${WORK_DIR}/pc/first.c "${program}")
run("${pc_line}" sh -c "${pc_line} -Wall -Wextra -Wpedantic -Werror" WORKING_DIRECTORY ${WORK_DIR}/pc)
run("pkg-config first" ${WORK_DIR}/pc/first ${bvh})
hand_position(got "${run_out}")
message("pkg-config: ${run_out}")
if(NOT got STREQUAL expected)
  message(FATAL_ERROR "pkg-config build prints ${got}, example_01_sample_blend ${expected}")
endif()
# The assimp and ODE libraries resolve through their own .pc files.
run("pkg-config sinew_assimp sinew_ode" pkg-config --libs sinew_showcase sinew_assimp sinew_ode)

# 2. find_package(sinew): the README's project, plus one program linking the
# libraries that need assimp and ODE (found on this machine by the config).
file(WRITE ${WORK_DIR}/cm/first.c "${program}")
file(WRITE ${WORK_DIR}/cm/CMakeLists.txt "${cmake_project}
add_executable(first_all first.c)
target_link_libraries(first_all PRIVATE sinew::sinew_showcase sinew::sinew_assimp sinew::sinew_ode)
")
run("cmake configure" ${CMAKE_COMMAND} -S ${WORK_DIR}/cm -B ${WORK_DIR}/cm/build
  -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_C_FLAGS=-Wall -Wextra -Wpedantic -Werror")
run("cmake build" ${CMAKE_COMMAND} --build ${WORK_DIR}/cm/build)
foreach(exe first first_all)
  run("find_package ${exe}" ${WORK_DIR}/cm/build/${exe} ${bvh})
  hand_position(got "${run_out}")
  message("find_package ${exe}: ${run_out}")
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "find_package build ${exe} prints ${got}, example_01_sample_blend ${expected}")
  endif()
endforeach()
