#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a run's time goes: with `TROVE_GEN_PROFILE` set in the environment, each phase's elapsed and
/// CPU time, and what the cache saved, are printed to standard error; otherwise it does nothing.
///
/// The first line gives the CPU time spent before the clock started (loading the executable and its
/// libraries, and parsing the arguments).
struct PhaseClock {
    /// Whether `TROVE_GEN_PROFILE` is set.
    static let isOn = getenv("TROVE_GEN_PROFILE") != nil

    private var lastWall: Double
    private var lastCPU: Double

    /// Starts the clock; prints the time spent before `main` when it can tell.
    init() {
        lastWall = Self.now(CLOCK_MONOTONIC)
        lastCPU = Self.now(CLOCK_PROCESS_CPUTIME_ID)
        guard Self.isOn else { return }
        Self.print("start: " + Self.milliseconds(lastCPU) + " CPU")
    }

    /// Prints the time since the previous lap (or the start) as the phase `name`.
    mutating func lap(_ name: String) {
        guard Self.isOn else { return }
        let wall = Self.now(CLOCK_MONOTONIC)
        let cpu = Self.now(CLOCK_PROCESS_CPUTIME_ID)
        Self.print(name + ": " + Self.milliseconds(wall - lastWall) + ", " + Self.milliseconds(cpu - lastCPU) + " CPU")
        lastWall = wall
        lastCPU = cpu
    }

    /// Prints `line`, prefixed with `trove-gen: `, when profiling is on.
    static func note(_ line: @autoclosure () -> String) {
        guard isOn else { return }
        print(line())
    }

    private static func print(_ line: String) {
        let text = "trove-gen: " + line + "\n"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func milliseconds(_ seconds: Double) -> String {
        String((seconds * 10_000).rounded() / 10) + " ms"
    }

    private static func now(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
