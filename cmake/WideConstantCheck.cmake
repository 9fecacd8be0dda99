# g++ 12.2 (Debian 12's) miscompiles some 256- and 512-bit constants when it may use AVX-512: a 32-byte
# copy of {1.0, 1.0, 1.0, 0.0} (std::vector<double>{1, 1, 1, 0}) becomes a broadcast of 1.0, because the
# constant's zero top word is not compared. It hides in any code built for AVX-512, tests' expected
# values included. Limiting inline copies and stores to 128 bits keeps such constants out of wide
# registers; the check below compiles and runs the failing case for one -march value, so compilers
# without the bug, and CPUs without AVX-512, keep their defaults.
include(CheckCXXCompilerFlag)
include(CheckCXXSourceRuns)

# Sets `out_var` to the flags code compiled with `march_flag` needs (empty when it needs none).
function(mt_wide_constant_workaround march_flag out_var)
  string(MAKE_C_IDENTIFIER "MT_WIDE_CONSTANTS_OK${march_flag}" ok_var)
  set(CMAKE_REQUIRED_FLAGS "-O2 ${march_flag}")
  check_cxx_source_runs([[
#include <vector>
__attribute__((noinline)) std::vector<double> values() { return {1, 1, 1, 0}; }
int main() { return values()[3] == 0 ? 0 : 1; }
]] ${ok_var})
  set(flags "")
  if(NOT ${ok_var})
    check_cxx_compiler_flag("-mmove-max=128 -mstore-max=128" MT_COMPILER_HAS_MOVE_MAX)
    if(MT_COMPILER_HAS_MOVE_MAX)
      set(flags -mmove-max=128 -mstore-max=128)
    else()
      message(WARNING "microtorch: ${march_flag} miscompiles wide constants and -mmove-max is not available")
    endif()
  endif()
  set(${out_var} ${flags} PARENT_SCOPE)
endfunction()
