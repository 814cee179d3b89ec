# tests/host/compile/planned_equals_naive_test.cpp compiles 2,000 random
# graphs four times each and builds the generated code with the host
# compiler at run time: about 3.3 minutes of CPU (two compilers at once),
# so on a machine shared with other builds its wall time can pass the 600 s
# every test gets (CMakeLists.txt). The test is defined after the parts.
cmake_language(DEFER CALL set_tests_properties planned_equals_naive_test
               PROPERTIES TIMEOUT 1800)
