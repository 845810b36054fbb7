# ClcDependencies.cmake - finds OpenCL, jansson, the threads library and (optionally) Check
# and OpenMP without downloading.
#
# Defines the imported targets clc::jansson and clc::openmp, Threads::Threads, and
# CLC_HAVE_CHECK / PkgConfig::CHECK.
# jansson is linked statically when libjansson.a is present (Debian's libjansson-dev ships
# it), so the binary also runs on a GPU server that lacks the shared library.

find_package(OpenCL REQUIRED)
find_package(PkgConfig REQUIRED)
# pthreads: a row's trace build is compiled on a thread of its own while the row is timed
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)

pkg_check_modules(JANSSON REQUIRED jansson)
option(CLC_STATIC_JANSSON "Link jansson statically when libjansson.a is found" ON)
find_library(CLC_JANSSON_STATIC NAMES libjansson.a HINTS ${JANSSON_LIBRARY_DIRS})
add_library(clc::jansson INTERFACE IMPORTED)
target_include_directories(clc::jansson INTERFACE ${JANSSON_INCLUDE_DIRS})
if(CLC_STATIC_JANSSON AND CLC_JANSSON_STATIC)
  target_link_libraries(clc::jansson INTERFACE ${CLC_JANSSON_STATIC})
  message(STATUS "jansson: static (${CLC_JANSSON_STATIC})")
else()
  target_link_directories(clc::jansson INTERFACE ${JANSSON_LIBRARY_DIRS})
  target_link_libraries(clc::jansson INTERFACE ${JANSSON_LIBRARIES})
  message(STATUS "jansson: shared")
endif()

# Debian's check ships a pkg-config file but no CMake package.
pkg_check_modules(CHECK IMPORTED_TARGET check)
set(CLC_HAVE_CHECK ${CHECK_FOUND})

# OpenMP (gcc's libgomp, which comes with gcc) spreads the host side of verification over the
# cores; without it the same loops run on one, only slower.
option(CLC_OPENMP "Verify results on every host core with OpenMP when it is found" ON)
add_library(clc::openmp INTERFACE IMPORTED)
if(CLC_OPENMP)
  find_package(OpenMP COMPONENTS C)
  if(OpenMP_C_FOUND)
    target_link_libraries(clc::openmp INTERFACE OpenMP::OpenMP_C)
  endif()
endif()
