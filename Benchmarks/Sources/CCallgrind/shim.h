#ifndef TROVE_BENCHMARK_CALLGRIND_SHIM_H
#define TROVE_BENCHMARK_CALLGRIND_SHIM_H

// Callgrind's client requests, so that a profile counts exactly one workload and is dumped under
// its name. Outside valgrind they cost a few instructions and do nothing; where valgrind's headers
// are not installed they are empty.

#if defined(__has_include) && __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

/// Starts counting: run valgrind with --collect-atstart=no.
static inline void benchmark_callgrind_start(void) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
}

/// Stops counting and writes the counts since the start as a profile described by `name`.
static inline void benchmark_callgrind_stop(const char *name) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(name);
}

/// Whether this process runs under valgrind.
static inline int benchmark_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
#else
static inline void benchmark_callgrind_start(void) {}
static inline void benchmark_callgrind_stop(const char *name) { (void)name; }
static inline int benchmark_running_on_valgrind(void) { return 0; }
#endif

#endif
