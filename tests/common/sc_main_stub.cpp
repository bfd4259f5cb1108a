// libsystemc expects the program to define sc_main; in test executables
// Boost.Test's main runs instead and SystemC testbenches call sc_start from
// their test cases, so this is never called.
extern "C" int sc_main(int, char**) { return 0; }
