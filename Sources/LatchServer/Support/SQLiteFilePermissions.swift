#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SQLite database holds password hashes and sealed secrets: its file and the `-wal`, `-shm`
/// and `-journal` files beside it are readable by latchd's user only (0600). The database file is
/// created empty with 0600 before SQLite opens it (SQLite creates the WAL and shared-memory files
/// with the database file's mode), and files left by an older latchd with looser modes are tightened.
enum SQLiteFilePermissions {
    static let mode: mode_t = 0o600
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Whether `path` names a file (SQLite's special names, `:memory:` and `file:` URIs, do not).
    static func isFile(_ path: String) -> Bool { path != ":memory:" && !path.hasPrefix("file:") }

    /// Creates `path` (empty, 0600) when it does not exist, and sets 0600 on it and its companions.
    static func restrict(databaseAt path: String) throws {
        guard isFile(path) else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw ConfigurationError("LATCH_DATABASE_URL", "cannot create the SQLite file \(path) (errno \(errno))")
        }
        close(descriptor)
        for file in [path] + companionSuffixes.map({ path + $0 }) {
            guard chmod(file, mode) == 0 || errno == ENOENT else {
                throw ConfigurationError(
                    "LATCH_DATABASE_URL", "cannot make \(file) readable by latchd's user only (errno \(errno))")
            }
        }
    }
}
