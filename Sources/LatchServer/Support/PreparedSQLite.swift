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
/// connections do not checkpoint on commit; once the WAL holds `checkpointPages` frames no checkpoint copied yet,
/// a pool thread checkpoints on a connection kept for checkpoints (SQLiteNIO's connections still checkpoint on
/// their own commits, as SQLite does). Writes on these connections take turns in the process (`writerTurn`).
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
    /// Held by a caller's thread while it runs a write: the connections of this pool take turns at SQLite's
    /// one write lock here, for the microseconds a write takes, instead of refusing each other as busy and
    /// handing the loser to a pool thread to sleep until the lock is free (issue 44 §4).
    private let writerTurn = Mutex<Void>(())
    private let handOffCount = Atomic<Int>(0)
    private let checkpointCount = Atomic<Int>(0)
    private let checkpointPending = Atomic<Bool>(false)
    /// How far into the WAL the last checkpoint copied, in frames (the WAL's frames are numbered from its start,
    /// and a writer starts it again from 1 once everything was copied and no reader still uses it).
    private let checkpointedFrames = Atomic<Int32>(0)
    /// The connection the checkpoints run on (one at a time: `checkpointPending`), so a checkpoint, which
    /// takes milliseconds, never holds a connection a caller's thread could have run a statement on (it did
    /// before: a caller found none idle and went to the pool, issue 44 §4).
    private let checkpointer: Connection
    /// SQLite's own automatic checkpoint threshold (`wal_autocheckpoint`'s default).
    static let checkpointPages: Int32 = 1000

    /// Opens `connections` connections to the SQLite file at `path` for statements, and one for checkpoints.
    init(path: String, connections: Int) throws {
        precondition(connections > 0)
        var opened: [Connection] = []
        do {
            for _ in 0...connections { opened.append(try Connection(path: path)) }
        } catch {
            for connection in opened { connection.close() }
            throw error
        }
        checkpointer = opened.removeLast()
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
                let statement = try connection.prepared(sql)
                let rows =
                    try statement.writes
                    ? writerTurn.withLock { _ in try connection.run(statement, binds, waitsWhenBusy: false) }
                    : connection.run(statement, binds, waitsWhenBusy: false)
                checkpointIfDue(connection)
                return rows
            } catch let error as PreparedSQLiteError where error.isBusy {
                // Locked by another writer: nothing changed; the pool's thread waits for it.
            }
        }
        handOffCount.add(1, ordering: .relaxed)
        return try await threads.runIfActive {
            try self.onPoolThread { connection in
                let rows = try connection.run(connection.prepared(sql), binds, waitsWhenBusy: true)
                self.checkpointIfDue(connection)
                return rows
            }
        }
    }

    /// How many checkpoints the pool's threads ran.
    var checkpoints: Int { checkpointCount.load(ordering: .relaxed) }

    /// After a commit that left `checkpointPages` or more frames in the WAL that no checkpoint copied yet, one
    /// checkpoint on a pool thread (none is queued while one is). Counting the frames not yet copied, not the
    /// WAL's length as SQLite's automatic checkpoint does: a WAL that could not start again (a reader was in it)
    /// keeps its length, and SQLite then checkpoints after every commit (about 500 a second under 8 refreshing
    /// clients, each with its syncs; issue 44 §4).
    private func checkpointIfDue(_ connection: Connection) {
        guard
            Self.checkpointIsDue(
                walFrames: connection.walPages, copied: checkpointedFrames.load(ordering: .relaxed)),
            checkpointPending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                .exchanged
        else { return }
        connection.walPages = 0
        threads.submit { state in
            defer { self.checkpointPending.store(false, ordering: .releasing) }
            guard case .active = state else { return }
            if let copied = self.checkpointer.checkpoint() {
                self.checkpointedFrames.store(copied, ordering: .relaxed)
            }
            self.checkpointCount.add(1, ordering: .relaxed)
        }
    }

    /// Whether a WAL of `walFrames` frames, of which the last checkpoint copied the first `copied`, holds
    /// `checkpointPages` frames not copied yet. A WAL shorter than what was copied has started again: all of it
    /// is new.
    static func checkpointIsDue(walFrames: Int32, copied: Int32) -> Bool {
        (walFrames >= copied ? walFrames - copied : walFrames) >= checkpointPages
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

    /// How often SQLite prepared the idle connections' statements again, together.
    var reprepareCount: Int {
        idle.withLock { connections in connections.reduce(0) { $0 + $1.reprepareCount } }
    }

    /// Finalizes the statements, closes the connections and stops the threads.
    func close() async {
        try? await threads.shutdownGracefully()
        for connection in idle.withLock({ $0 }) { connection.close() }
        checkpointer.close()
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
        private var statements: [String: Statement] = [:]

        /// A prepared statement, whether it writes to the database and how many parameters it has (read once,
        /// when it is prepared).
        struct Statement {
            let handle: OpaquePointer
            let writes: Bool
            let parameters: Int
        }

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

        /// How often SQLite prepared this connection's statements again (a schema change, or an expired plan).
        var reprepareCount: Int {
            statements.values.reduce(0) {
                $0 + Int(sqlite_nio_sqlite3_stmt_status($1.handle, SQLITE_STMTSTATUS_REPREPARE, 0))
            }
        }

        /// The WAL's size in pages after this connection's last commit (SQLite's WAL hook sets it).
        var walPages: Int32 = 0

        /// Copies the WAL into the file, and makes the next write start the WAL again. First a passive checkpoint,
        /// which waits for no one and copies what no reader still needs; then a restart checkpoint, which holds
        /// the write lock while it copies the frames written since and waits for the readers still in the WAL
        /// (statements of microseconds; it gives up after about 17 ms, so a long read never holds writers up for
        /// longer). Without the restart the WAL never starts again under steady writes: every write transaction
        /// began while the WAL was not all copied, so none may start it again, and it grew by 1.1 GB in 8 s
        /// under 8 refreshing clients (issue 44 §4). Only this connection checkpoints, and it runs nothing else.
        /// Answers how many of the WAL's frames are now copied (nil when neither checkpoint ran: the next commit
        /// asks again).
        func checkpoint() -> Int32? {
            sqlite_nio_sqlite3_busy_handler(
                handle,
                { _, attempts in
                    guard attempts < 40 else { return 0 }
                    usleep(UInt32(min(attempts, 10)) * 50)
                    return 1
                }, nil)
            var frames: Int32 = 0
            var copied: Int32 = 0
            let passive = sqlite_nio_sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied)
            guard passive == SQLITE_OK else { return nil }
            var restartFrames: Int32 = 0
            var restartCopied: Int32 = 0
            let restart = sqlite_nio_sqlite3_wal_checkpoint_v2(
                handle, nil, SQLITE_CHECKPOINT_RESTART, &restartFrames, &restartCopied)
            return restart == SQLITE_OK ? restartCopied : copied
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

        /// `sql` prepared on this connection (the first time it is asked for).
        func prepared(_ sql: String) throws -> Statement {
            if let statement = statements[sql] { return statement }
            var handle: OpaquePointer?
            let status = sqlite_nio_sqlite3_prepare_v3(
                self.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
            guard status == SQLITE_OK, let handle else { throw failure(status) }
            let statement = Statement(
                handle: handle, writes: sqlite_nio_sqlite3_stmt_readonly(handle) == 0,
                parameters: Int(sqlite_nio_sqlite3_bind_parameter_count(handle)))
            statements[sql] = statement
            return statement
        }

        func run(_ prepared: Statement, _ binds: [SQLiteData], waitsWhenBusy: Bool) throws -> [[SQLiteData]] {
            setWaitsWhenBusy(waitsWhenBusy)
            let statement = prepared.handle
            // Reset, not `sqlite3_clear_bindings`: every call binds every parameter anew, and clearing them expires
            // a statement whose plan looked at a bound value (the refresh's find, a join on `token_hash = ?1`), so
            // SQLite prepared it again on every call (5 % of a refresh's CPU, issue 44 §4).
            defer { sqlite_nio_sqlite3_reset(statement) }
            guard binds.count == prepared.parameters else {
                throw PreparedSQLiteError(
                    code: SQLITE_RANGE, message: "\(binds.count) values for \(prepared.parameters) parameters")
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
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
            statements.removeAll()
            if let handle { sqlite_nio_sqlite3_close_v2(handle) }
            handle = nil
        }
    }
}
