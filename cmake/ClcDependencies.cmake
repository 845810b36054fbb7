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

# libclang (Debian: libclang-14-dev, or libclang-dev) parses a kernel written without the trace
# macros so that `custom` can rewrite it for its trace build (host/core/rewrite.c).  Optional:
# without it such a kernel runs unchecked, with a note.  Defines clc::libclang (empty when not
# found) and CLC_HAVE_LIBCLANG.
option(CLC_LIBCLANG "Build the kernel rewriter with libclang when it is found" ON)
set(CLC_LLVM_ROOT "" CACHE PATH
    "An LLVM root to try first (include/clang-c, lib/libclang.so, lib/clang/N/include)")
add_library(clc::libclang INTERFACE IMPORTED)
set(CLC_HAVE_LIBCLANG OFF)
if(CLC_LIBCLANG)
  # The newest LLVM, but the one PoCL loads first: two LLVM versions in one process crash in
  # PoCL's compiler.
  file(GLOB CLC_LLVM_ROOTS /usr/lib/llvm-*)
  list(SORT CLC_LLVM_ROOTS COMPARE NATURAL ORDER DESCENDING)
  file(GLOB CLC_POCL_LIBS /usr/lib/*/libpocl.so.*)
  if(CLC_POCL_LIBS)
    list(GET CLC_POCL_LIBS 0 pocl)
    execute_process(COMMAND ldd ${pocl} OUTPUT_VARIABLE pocl_deps ERROR_QUIET)
    if(pocl_deps MATCHES "libLLVM-([0-9]+)")
      list(REMOVE_ITEM CLC_LLVM_ROOTS /usr/lib/llvm-${CMAKE_MATCH_1})
      list(INSERT CLC_LLVM_ROOTS 0 /usr/lib/llvm-${CMAKE_MATCH_1})
    endif()
  endif()
  if(CLC_LLVM_ROOT)
    list(INSERT CLC_LLVM_ROOTS 0 ${CLC_LLVM_ROOT})
  endif()
  foreach(root ${CLC_LLVM_ROOTS})
    if(EXISTS ${root}/include/clang-c/Index.h)
      find_library(CLC_LIBCLANG_LIBRARY NAMES clang PATHS ${root}/lib NO_DEFAULT_PATH)
      # the headers of the OpenCL built-ins, which Debian's libclang does not find alone
      file(GLOB CLC_CLANG_BASE ${root}/lib/clang/*/include/opencl-c-base.h)
      if(CLC_LIBCLANG_LIBRARY AND CLC_CLANG_BASE)
        list(GET CLC_CLANG_BASE 0 base)
        get_filename_component(CLC_CLANG_INCLUDE ${base} DIRECTORY)
        target_include_directories(clc::libclang INTERFACE ${root}/include)
        target_link_libraries(clc::libclang INTERFACE ${CLC_LIBCLANG_LIBRARY})
        target_compile_definitions(clc::libclang INTERFACE CLC_HAVE_LIBCLANG
                                   CLC_CLANG_INCLUDE="${CLC_CLANG_INCLUDE}")
        set(CLC_HAVE_LIBCLANG ON)
        break()
      endif()
      unset(CLC_LIBCLANG_LIBRARY CACHE)
    endif()
  endforeach()
endif()
if(CLC_HAVE_LIBCLANG)
  message(STATUS "libclang: ${CLC_LIBCLANG_LIBRARY} (the kernel rewriter is built in)")
else()
  message(STATUS "libclang not found: the kernel rewriter is not built (apt-get install "
                 "libclang-N-dev, N the LLVM version PoCL uses; cmake/setup.sh picks it)")
endif()
