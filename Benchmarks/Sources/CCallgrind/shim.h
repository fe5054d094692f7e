#ifndef TROVE_BENCHMARK_CALLGRIND_SHIM_H
#define TROVE_BENCHMARK_CALLGRIND_SHIM_H

// Callgrind's client requests, so that a profile counts exactly one workload and is dumped under
// its name. Outside valgrind they cost a few instructions and do nothing; where valgrind's headers
// are not installed they are empty.
//
// Run valgrind with --collect-atstart=yes (its default), as Scripts/instructions.sh does: a region
// zeroes the counts of every thread when it starts and dumps the counts of every thread when it
// stops. It does not toggle collection: CALLGRIND_TOGGLE_COLLECT switches the calling thread only,
// so a region that toggled it on counted the work of the thread that ran the workload and missed
// whatever other threads did for it (async transactions on an executor, observations, the tasks
// of the concurrency workloads).

#if defined(__has_include) && __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

/// Starts counting: every thread's counts start again from zero.
static inline void benchmark_callgrind_start(void) {
    CALLGRIND_ZERO_STATS;
}

/// Writes the counts of every thread since the start as a profile described by `name`.
static inline void benchmark_callgrind_stop(const char *name) {
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
