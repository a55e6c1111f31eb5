import FluentSQLiteDriver
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import VaporCSQLite

/// SQLite connections of latchd's own that keep their statements prepared (issue 44 §4): the refresh
/// path's two statements are parsed once per connection, not on every call as SQLiteNIO does.
///
/// A call runs on the caller's thread when a connection is idle and SQLite answers without waiting (a read
/// in WAL mode never waits; a write waits only while another connection writes): no hand-off to another
/// thread and back, which cost a refresh more than its SQL (two thread switches per statement; issue 44 §4,
/// PERFORMANCE.md session 28). A call that would wait (the database is locked, or every connection is in use)
/// is handed to a pool thread, which waits and retries there, so the caller's event loop never sleeps on a
/// lock. Statements are single and autocommit: one refused as busy changed nothing and runs again whole.
/// Checkpoints (which copy the WAL into the file and sync it) never run on a caller's thread either: these
/// connections do not checkpoint on commit; once the WAL holds `checkpointPages` pages a pool thread runs a
/// passive checkpoint (SQLiteNIO's connections still checkpoint on their own commits, as SQLite does).
///
/// The connections are SQLiteNIO's own SQLite (the same library copy in the process, `VaporCSQLite`, whose
/// functions are prefixed `sqlite_nio_`), never a second one: two copies of SQLite in one process can
/// corrupt a file they both write, because POSIX locks are per process and each copy would drop the other's
/// (sqlite.org, "How To Corrupt An SQLite Database File", 2.2.1). Set up as the application's own SQLite
/// connections are: WAL (stored in the file), `synchronous=NORMAL`, foreign keys on, a writer that finds the
/// database locked waits and retries.
final class PreparedSQLite: Sendable {
    /// One thread per connection: a call that would wait runs on a thread of this pool.
    private let threads: NIOThreadPool
    private let idle: Mutex<[Connection]>
    private let handOffCount = Atomic<Int>(0)
    private let checkpointCount = Atomic<Int>(0)
    private let checkpointPending = Atomic<Bool>(false)
    /// SQLite's own automatic checkpoint threshold (`wal_autocheckpoint`'s default).
    static let checkpointPages: Int32 = 1000

    /// Opens `connections` connections to the SQLite file at `path`.
    init(path: String, connections: Int) throws {
        precondition(connections > 0)
        var opened: [Connection] = []
        do {
            for _ in 0..<connections { opened.append(try Connection(path: path)) }
        } catch {
            for connection in opened { connection.close() }
            throw error
        }
        idle = Mutex(opened)
        threads = NIOThreadPool(numberOfThreads: connections)
        threads.start()
    }

    /// Runs `sql` (prepared on first use by the connection that runs it) with `binds` (`?1`, `?2`, …) and
    /// answers its rows, each the columns' values in the statement's order.
    func rows(_ sql: String, _ binds: [SQLiteData]) async throws -> [[SQLiteData]] {
        if let connection = idle.withLock({ $0.popLast() }) {
            defer { idle.withLock { $0.append(connection) } }
            do {
                let rows = try connection.run(sql, binds, waitsWhenBusy: false)
                checkpointIfDue(connection)
                return rows
            } catch let error as PreparedSQLiteError where error.isBusy {
                // Locked by another writer: nothing changed; the pool's thread waits for it.
            }
        }
        handOffCount.add(1, ordering: .relaxed)
        return try await threads.runIfActive {
            try self.onPoolThread { connection in
                let rows = try connection.run(sql, binds, waitsWhenBusy: true)
                self.checkpointIfDue(connection)
                return rows
            }
        }
    }

    /// How many passive checkpoints the pool's threads ran.
    var checkpoints: Int { checkpointCount.load(ordering: .relaxed) }

    /// After a commit that left the WAL at `checkpointPages` or more, one checkpoint on a pool thread (none
    /// is queued while one is).
    private func checkpointIfDue(_ connection: Connection) {
        guard connection.walPages >= Self.checkpointPages,
            checkpointPending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                .exchanged
        else { return }
        connection.walPages = 0
        threads.submit { state in
            defer { self.checkpointPending.store(false, ordering: .releasing) }
            guard case .active = state else { return }
            self.onPoolThread { $0.checkpoint() }
            self.checkpointCount.add(1, ordering: .relaxed)
        }
    }

    /// How many calls were handed to the pool's threads (they would have waited on the caller's).
    var handOffs: Int { handOffCount.load(ordering: .relaxed) }

    /// Runs `body` with an idle connection, on a pool thread, waiting for one if need be: calls on callers'
    /// threads hold one only while they run a statement that does not wait, so one comes back within
    /// microseconds.
    private func onPoolThread<T>(_ body: (Connection) throws -> T) rethrows -> T {
        let connection = waitForIdleConnection()
        defer { idle.withLock { $0.append(connection) } }
        return try body(connection)
    }

    private func waitForIdleConnection() -> Connection {
        while true {
            if let connection = idle.withLock({ $0.popLast() }) { return connection }
            usleep(20)
        }
    }

    /// How many statements the idle connections have prepared, together (each connection prepares each
    /// statement once).
    var preparedStatementCount: Int {
        idle.withLock { connections in connections.reduce(0) { $0 + $1.statementCount } }
    }

    /// Finalizes the statements, closes the connections and stops the threads.
    func close() async {
        try? await threads.shutdownGracefully()
        for connection in idle.withLock({ $0 }) { connection.close() }
        idle.withLock { $0.removeAll() }
    }
}

/// An SQLite error of a prepared connection: its (extended) result code and message.
struct PreparedSQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    var description: String { "SQLite error \(code): \(message)" }

    /// SQLITE_BUSY or one of its extended codes: another connection holds the lock this statement needs.
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY }
}

extension PreparedSQLite {
    /// One `sqlite3` handle and its prepared statements, used by one thread at a time (it is taken from
    /// `idle` for the length of a call and put back after).
    fileprivate final class Connection: @unchecked Sendable {
        private var handle: OpaquePointer?
        private var statements: [String: OpaquePointer] = [:]

        init(path: String) throws {
            sqlite_nio_sqlite3_initialize()
            let options = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE
            var opened: OpaquePointer?
            let status = sqlite_nio_sqlite3_open_v2(path, &opened, options, nil)
            handle = opened
            guard status == SQLITE_OK else {
                let error = PreparedSQLiteError(code: status, message: "cannot open the SQLite database")
                close()
                throw error
            }
            setWaitsWhenBusy(true) // opening may meet a writer; a caller's call turns waiting off
            do {
                try execute("PRAGMA journal_mode=WAL")
                try execute("PRAGMA synchronous=NORMAL")
                try execute("PRAGMA foreign_keys=ON")
            } catch {
                close()
                throw error
            }
            // Replaces SQLite's automatic checkpoint on commit (itself a WAL hook): `PreparedSQLite` runs them.
            sqlite_nio_sqlite3_wal_hook(
                opened,
                { context, _, _, pages in
                    if let context { Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue().walPages = pages }
                    return SQLITE_OK
                }, Unmanaged.passUnretained(self).toOpaque())
        }

        var statementCount: Int { statements.count }

        /// The WAL's size in pages after this connection's last commit (SQLite's WAL hook sets it).
        var walPages: Int32 = 0

        /// A passive checkpoint: copies what no reader still needs from the WAL into the file, waiting for no one.
        func checkpoint() {
            setWaitsWhenBusy(true)
            sqlite_nio_sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }

        /// Whether the busy handler is installed now (`run` sets it per call).
        private var waits = false

        /// On a pool thread a writer that finds the database locked waits a little and tries again, as long
        /// as it takes (SQLiteNIO's connections retry at once; this one yields the core to the lock's holder).
        /// On a caller's thread it gets SQLITE_BUSY at once.
        private func setWaitsWhenBusy(_ wanted: Bool) {
            guard wanted != waits else { return }
            waits = wanted
            if wanted {
                sqlite_nio_sqlite3_busy_handler(
                    handle,
                    { _, attempts in
                        usleep(UInt32(min(attempts, 20)) * 50)
                        return 1
                    }, nil)
            } else {
                sqlite_nio_sqlite3_busy_handler(handle, nil, nil)
            }
        }

        private func execute(_ sql: String) throws {
            let status = sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil)
            guard status == SQLITE_OK else { throw failure(status) }
        }

        private func failure(_ status: Int32) -> PreparedSQLiteError {
            PreparedSQLiteError(
                code: status, message: sqlite_nio_sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown")
        }

        private func prepared(_ sql: String) throws -> OpaquePointer {
            if let statement = statements[sql] { return statement }
            var statement: OpaquePointer?
            let status = sqlite_nio_sqlite3_prepare_v3(
                handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard status == SQLITE_OK, let statement else { throw failure(status) }
            statements[sql] = statement
            return statement
        }

        func run(_ sql: String, _ binds: [SQLiteData], waitsWhenBusy: Bool) throws -> [[SQLiteData]] {
            setWaitsWhenBusy(waitsWhenBusy)
            let statement = try prepared(sql)
            defer {
                sqlite_nio_sqlite3_reset(statement)
                sqlite_nio_sqlite3_clear_bindings(statement)
            }
            for (index, value) in binds.enumerated() {
                let status = bind(value, at: Int32(index + 1), of: statement)
                guard status == SQLITE_OK else { throw failure(status) }
            }
            let columns = sqlite_nio_sqlite3_column_count(statement)
            var rows: [[SQLiteData]] = []
            while true {
                let status = sqlite_nio_sqlite3_step(statement)
                if status == SQLITE_DONE { return rows }
                guard status == SQLITE_ROW else { throw failure(status) }
                rows.append((0..<columns).map { value(at: $0, of: statement) })
            }
        }

        private func bind(_ value: SQLiteData, at index: Int32, of statement: OpaquePointer) -> Int32 {
            switch value {
            case .integer(let number): return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
            case .float(let number): return sqlite_nio_sqlite3_bind_double(statement, index, number)
            case .text(let text):
                return sqlite_nio_sqlite3_bind_text64(
                    statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
            case .blob(let bytes):
                return bytes.withUnsafeReadableBytes {
                    sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
                }
            case .null: return sqlite_nio_sqlite3_bind_null(statement, index)
            }
        }

        private func value(at column: Int32, of statement: OpaquePointer) -> SQLiteData {
            switch sqlite_nio_sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
            case SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .null }
                return .text(String(cString: text))
            case SQLITE_BLOB:
                let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
                var buffer = ByteBufferAllocator().buffer(capacity: length)
                if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                    buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: length))
                }
                return .blob(buffer)
            default: return .null
            }
        }

        /// SQLite copies a bound value before the call returns (`SQLITE_TRANSIENT`).
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        func close() {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
            statements.removeAll()
            if let handle { sqlite_nio_sqlite3_close_v2(handle) }
            handle = nil
        }
    }
}
