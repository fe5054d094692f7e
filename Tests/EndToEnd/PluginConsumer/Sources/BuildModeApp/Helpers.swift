import Foundation

/// A file without annotations: the build plugin still declares an output for it (a header-only file).
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        print("BuildModeApp: FAILED: \(message())")
        exit(1)
    }
}
