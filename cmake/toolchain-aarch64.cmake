# Cross build for arm64 (aarch64 Linux) with Debian 12's cross compiler; the
# tests run under qemu-user through CMAKE_CROSSCOMPILING_EMULATOR, so plain
# `ctest` works on an x86-64 machine.
# Debian packages (scripts/bootstrap installs them):
#   gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
#   libcmocka-dev:arm64 (after `dpkg --add-architecture arm64`; it co-installs
#   with the amd64 one and puts its library in /usr/lib/aarch64-linux-gnu)
# Used by the `arm64` preset (CMakePresets.json), which builds the runtime and
# the unit tests that need neither the tools (assimp) nor the viewer.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(SINEW_AARCH64_TRIPLET aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${SINEW_AARCH64_TRIPLET}-gcc)
# Only the C compiler exists for this target: the header compile tests'
# C++ half is not cross built.
set(CMAKE_CXX_COMPILER "")

# Debian 12's aarch64 gcc 12.2 crashes (internal compiler error in
# vect_transform_reduction) vectorizing an fmax reduction at -O2, e.g.
#   double m = 1.0; for (int r = 0; r < 4; ++r) m = fmax(m, fabs(f[r]));
# as the unit tests' tolerance helpers do: no loop vectorizer for this
# compiler (the SIMD kernels use NEON intrinsics and do not need it).
set(CMAKE_C_FLAGS_INIT "-fno-tree-loop-vectorize")

# The cross C library lives in /usr/aarch64-linux-gnu; arm64 packages from
# Debian's multiarch (libcmocka-dev:arm64) in /usr/lib/aarch64-linux-gnu.
set(SINEW_AARCH64_SYSROOT /usr/${SINEW_AARCH64_TRIPLET})
set(CMAKE_FIND_ROOT_PATH ${SINEW_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config must see the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${SINEW_AARCH64_TRIPLET}/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# qemu-aarch64 runs the tests with the arm64 C library that Debian's
# multiarch installs with libcmocka-dev:arm64 (libc6:arm64: /lib/ld-linux-
# aarch64.so.1 and /lib/aarch64-linux-gnu), so no -L prefix: with
# `-L /usr/aarch64-linux-gnu` the loader came from the cross package
# (glibc 2.36-8cross1) but libc.so.6 from multiarch (2.36-9+deb12u14), a
# mismatched pair under which programs that start a thread hang (test_pool).
# Linking still uses the cross sysroot, the same glibc 2.36 ABI.
find_program(SINEW_QEMU_AARCH64 qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${SINEW_QEMU_AARCH64})
