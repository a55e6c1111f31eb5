import Foundation

/// The executables SwiftPM built for this package (`latchd`, `latch`): beside the test bundle, else in
/// `.build/debug`.
public enum BuiltProducts {
    /// Where SwiftPM puts the products, in the order they are looked for.
    public static let directories: [URL] = {
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

    /// The executable `name` in the first of ``directories`` that has it; `nil` when none does.
    public static func executable(named name: String) -> URL? {
        directories.map { $0.appendingPathComponent(name) }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }
}
