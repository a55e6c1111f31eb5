import Foundation
import Testing

/// The `latch` and `latchd` executables SwiftPM built beside this test bundle (the test target
/// depends on both, so `swift test` builds them).
enum Binaries {
    /// Where SwiftPM put the products: the directory of the test bundle, else `.build/debug`.
    static let candidates: [URL] = {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        directories.append(packageRoot.appendingPathComponent(".build/debug"))
        return directories
    }()

    /// The executable `name`; the test fails (never skips) when it is missing.
    static func require(_ name: String) throws -> URL {
        let found = candidates.map { $0.appendingPathComponent(name) }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
        return try #require(found, "\(name) not built beside the tests (looked in \(candidates.map(\.path)))")
    }
}
