import Foundation
import LatchTestSupport
import Testing

/// The `latch` and `latchd` executables SwiftPM built beside this test bundle (the test target
/// depends on both, so `swift test` builds them).
enum Binaries {
    /// The executable `name`; the test fails (never skips) when it is missing.
    static func require(_ name: String) throws -> URL {
        try #require(
            BuiltProducts.executable(named: name),
            "\(name) not built beside the tests (looked in \(BuiltProducts.directories.map(\.path)))")
    }
}
