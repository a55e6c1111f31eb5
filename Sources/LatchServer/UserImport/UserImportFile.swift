import Foundation

/// Reads an import file line by line in 64 KiB chunks (issue 45 §1), so memory stays the same however
/// long the file is; hands the lines on in batches.
struct UserImportFile: Sendable {
    let path: String
    /// A longer line is refused (`line_too_long`) without being held.
    static let maximumLineBytes = 1 << 20

    /// Calls `batch` with up to `size` lines at a time, numbered from 1; a line over the limit comes as
    /// `Line.Content.tooLong`, in its place.
    func forEachBatch(of size: Int, _ batch: ([UserImporter.Line]) async throws -> Void) async throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw UserImportFileError.unreadable(path) }
        defer { try? handle.close() }
        var pending: [UserImporter.Line] = []
        var current = [UInt8]()
        var number = 0
        var skipping = false
        func finishLine() {
            number += 1
            pending.append(
                skipping
                    ? UserImporter.Line(number: number, content: .tooLong)
                    : UserImporter.Line(number: number, text: Substring(decoding: current, as: UTF8.self)))
            current.removeAll(keepingCapacity: true)
            skipping = false
        }
        while true {
            let chunk = try handle.read(upToCount: 65_536) ?? Data()
            if chunk.isEmpty { break }
            for byte in chunk {
                if byte == UInt8(ascii: "\n") {
                    finishLine()
                    if pending.count >= size {
                        try await batch(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                } else if !skipping {
                    current.append(byte)
                    if current.count > Self.maximumLineBytes {
                        skipping = true
                        current.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        if !current.isEmpty || skipping { finishLine() }
        if !pending.isEmpty { try await batch(pending) }
    }
}

/// A file the import cannot read.
enum UserImportFileError: Error, CustomStringConvertible {
    case unreadable(String)

    var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        }
    }
}
