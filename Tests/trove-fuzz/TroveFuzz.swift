import Foundation
import Trove
import TroveTestSupport

// A libFuzzer target for Trove's binary decoders, the coders of the test models and every coder
// trove-gen generated for its showcase fixture (see FuzzHarness). Not run in CI; RELIABILITY.md
// gives the commands:
//
//   swift build --product trove-fuzz && mkdir -p /tmp/trove-corpus && .build/debug/trove-fuzz -write-corpus /tmp/trove-corpus
//   swift build -c release --product trove-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DTROVE_LIBFUZZER
//   .build/release/trove-fuzz /tmp/trove-corpus -max_total_time=600
//
// Built without TROVE_LIBFUZZER it is a plain executable that writes the seed corpus, or
// replays inputs (crash files of libFuzzer, for example) given as paths.

/// The decoders under test: FuzzHarness's own and the showcase's generated coders (compiled in
/// from `Showcase`, a link to the reliability tests' copy of the fixture).
let harness: FuzzHarness = {
    do {
        return try FuzzHarness(adding: [
            .coder(MessageCoder<User>.self, name: "User", values: ShowcaseSamples.users),
            .coder(MessageCoder<UserStats>.self, name: "UserStats", values: ShowcaseSamples.users.compactMap(\.stats)),
            .coder(MessageCoder<Address>.self, name: "Address", values: ShowcaseSamples.users.compactMap(\.address)),
            .coder(MessageCoder<Shape>.self, name: "Shape", values: ShowcaseSamples.shapes),
            .coder(MessageCoder<Sample>.self, name: "Sample", values: ShowcaseSamples.samples),
            .coder(MessageCoder<Library.Book>.self, name: "Library.Book", values: ShowcaseSamples.books),
            .coder(MessageCoder<Order>.self, name: "Order", values: ShowcaseSamples.orders),
            .coder(
                CodableCoder<OrderNote>.self, name: "OrderNote", values: ShowcaseSamples.orders.compactMap(\.metadata)),
            .coder(MessageCoder<Counter>.self, name: "Counter", values: ShowcaseSamples.counters),
            .coder(MessageCoder<Tag>.self, name: "Tag", values: ShowcaseSamples.tags),
            .coder(MessageCoder<Setting>.self, name: "Setting", values: ShowcaseSamples.settings),
            .coder(MessageCoder<NoteV1>.self, name: "NoteV1", values: ShowcaseSamples.notesV1),
            .coder(MessageCoder<NoteV2>.self, name: "NoteV2", values: ShowcaseSamples.notesV2),
        ])
    } catch {
        fatalError("cannot encode the seeds: \(error)")
    }
}()

/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func troveFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    harness.run(UnsafeRawBufferPointer(start: data, count: size))
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
                for (index, input) in harness.seedCorpus.enumerated() {
                    try Data(input).write(to: URL(fileURLWithPath: folder).appendingPathComponent("seed-\(index)"))
                }
                print("\(harness.seedCorpus.count) seeds for \(harness.decoders.count) decoders written to \(folder)")
                return
            }
            guard !arguments.isEmpty else {
                print("usage: trove-fuzz -write-corpus <folder> | trove-fuzz <input file>...")
                return
            }
            while let path = arguments.popFirst() {
                let input = try Data(contentsOf: URL(fileURLWithPath: path))
                let decoded = input.withUnsafeBytes { harness.run($0) }
                print("\(path): \(decoded ? "decoded" : "rejected as corrupt")")
            }
        #endif
    }
}
