import Foundation
import TroveTestSupport

// A libFuzzer target for Trove's binary decoders and the coders of the test models (see
// FuzzHarness). Not run in CI; RELIABILITY.md gives the commands:
//
//   swift build -c release --product trove-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DTROVE_LIBFUZZER
//   mkdir -p /tmp/trove-corpus && .build/release/trove-fuzz -write-corpus /tmp/trove-corpus   (plain build)
//   .build/release/trove-fuzz /tmp/trove-corpus -max_total_time=600
//
// Built without TROVE_LIBFUZZER it is a plain executable that writes the seed corpus, or
// replays inputs (crash files of libFuzzer, for example) given as paths.

/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func troveFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzHarness.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

#if TROVE_LIBFUZZER
    /// libFuzzer's driver: SwiftPM gives every executable its own `main`, so this one hands over to
    /// libFuzzer instead of linking libFuzzer's `main`.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt
#endif

@main
struct TroveFuzz {
    static func main() throws {
        #if TROVE_LIBFUZZER
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, troveFuzzTestOneInput))
        #else
            var arguments = CommandLine.arguments.dropFirst()
            if arguments.first == "-write-corpus", let folder = arguments.dropFirst().first {
                for (index, input) in try FuzzHarness.seedCorpus().enumerated() {
                    try Data(input).write(to: URL(fileURLWithPath: folder).appendingPathComponent("seed-\(index)"))
                }
                return
            }
            guard !arguments.isEmpty else {
                print("usage: trove-fuzz -write-corpus <folder> | trove-fuzz <input file>...")
                return
            }
            while let path = arguments.popFirst() {
                let input = try Data(contentsOf: URL(fileURLWithPath: path))
                let decoded = input.withUnsafeBytes { FuzzHarness.run($0) }
                print("\(path): \(decoded ? "decoded" : "rejected as corrupt")")
            }
        #endif
    }
}
