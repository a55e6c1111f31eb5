import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A vault that keeps each item in its own `0600` file inside a `0700` directory: the token store on
/// Linux (and for command-line tools elsewhere). The default directory is `$XDG_CONFIG_HOME/latch`, or
/// `~/.config/latch` when that variable is unset.
///
/// Writes are atomic (a temporary file in the same directory, flushed, then renamed over the item), so
/// a crash leaves either the old item or the new one, never half of one. A missing item reads as
/// `.notFound`; an item or directory that exists but cannot be read reads as `.unavailable`.
///
///     let vault = FileVault()                               // ~/.config/latch
///     let client = LatchClient(serverURL: url, vault: vault)
public struct FileVault: TokenVault {
    /// The directory holding the items.
    public let directory: URL

    /// A vault in `directory` (created with mode `0700` on first write).
    public init(directory: URL) {
        self.directory = directory
    }

    /// A vault in the default directory for `environment`: `$XDG_CONFIG_HOME/latch`, else `$HOME/.config/latch`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(directory: Self.defaultDirectory(environment: environment))
    }

    /// `$XDG_CONFIG_HOME/latch` when that is an absolute path, else `$HOME/.config/latch` (the home
    /// directory of the current user when `HOME` is unset).
    public static func defaultDirectory(environment: [String: String]) -> URL {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent("latch", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".config", isDirectory: true)
            .appendingPathComponent("latch", isDirectory: true)
    }

    public func read(_ key: String) -> VaultRead {
        readFile(atPath: fileURL(for: key).path)
    }

    public func write(_ data: Data, for key: String) throws {
        try prepareDirectory(for: key)
        let target = fileURL(for: key).path
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)").path
        if let failure = writeNewFile(atPath: temporary, data: data) {
            _ = unlink(temporary)
            throw VaultError(.write, key: key, status: failure, reason: Self.describe(failure))
        }
        guard rename(temporary, target) == 0 else {
            let failure = errno
            _ = unlink(temporary)
            throw VaultError(.write, key: key, status: failure, reason: Self.describe(failure))
        }
        syncDirectory(atPath: directory.path)
    }

    public func delete(_ key: String) throws {
        guard unlink(fileURL(for: key).path) == 0 else {
            let failure = errno
            // Deleting what is not there succeeds: the item is gone either way.
            if failure == ENOENT || failure == ENOTDIR { return }
            throw VaultError(.delete, key: key, status: failure, reason: Self.describe(failure))
        }
        syncDirectory(atPath: directory.path)
    }

    /// The file that holds `key`.
    ///
    /// Every byte outside `[A-Za-z0-9_-]` becomes `%XX`, so a key can never name another directory
    /// (`../x`), a hidden file, or a temporary file (those start with a dot).
    public func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(Self.fileName(for: key), isDirectory: false)
    }

    static func fileName(for key: String) -> String {
        // A lone "%" is never produced by the escaping below, so the empty key cannot collide.
        guard !key.isEmpty else { return "%" }
        var name = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                name.append(Character(Unicode.Scalar(byte)))
            default:
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name
    }

    /// Creates the parent directories (default modes) and the vault directory itself with mode `0700`.
    private func prepareDirectory(for key: String) throws {
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw VaultError(.write, key: key, status: EACCES, reason: "cannot create \(parent.path): \(error)")
        }
        let path = directory.path
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            let failure = errno
            throw VaultError(.write, key: key, status: failure, reason: Self.describe(failure))
        }
        // An existing directory may have been created with looser permissions; the vault is ours.
        guard chmod(path, 0o700) == 0 else {
            let failure = errno
            throw VaultError(.write, key: key, status: failure, reason: Self.describe(failure))
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

// Free functions, so the POSIX `read`/`write` are not shadowed by the vault's own methods.

/// Reads a whole file: `.notFound` when it (or its directory) does not exist, `.unavailable` on any
/// other failure.
private func readFile(atPath path: String) -> VaultRead {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return errno == ENOENT ? .notFound : .unavailable }
    defer { _ = close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return .found(data) }
        if count < 0 {
            if errno == EINTR { continue }
            return .unavailable
        }
        data.append(contentsOf: buffer[0..<count])
    }
}

/// Creates `path` (which must not exist) with mode `0600`, writes `data` and flushes it to disk.
/// Returns the `errno` of the first failure, or nil.
private func writeNewFile(atPath path: String, data: Data) -> Int32? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return errno }
    var failure: Int32?
    // The umask can only remove bits, but say exactly what the file must be.
    if fchmod(descriptor, 0o600) != 0 { failure = errno }
    if failure == nil {
        failure = data.withUnsafeBytes { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    return failure
}

/// Flushes a directory entry change (rename, unlink) to disk; best effort.
private func syncDirectory(atPath path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    _ = close(descriptor)
}
