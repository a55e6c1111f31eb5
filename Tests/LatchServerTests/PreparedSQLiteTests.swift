import FluentSQLiteDriver
import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchServer

/// Issue 44 §4: connections that keep their statements prepared, on SQLiteNIO's own SQLite; latchd's
/// refresh path runs its two statements on them.
@Suite("Issue 44 §4: prepared SQLite connections")
struct PreparedSQLiteTests {
    static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("prepared-\(UUID().uuidString).sqlite").path
    }

    /// Runs `writer(0)`, `writer(1)`, … `writer(count - 1)` at once and waits for all of them.
    static func concurrently(_ count: Int, _ writer: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count { group.addTask { try await writer(index) } }
            try await group.waitForAll()
        }
    }

    /// The database file and its WAL and shared-memory files.
    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test("44 §4: a statement is prepared once per connection and answers every value kind as SQLite stored it")
    func test_44_4_preparedOnceAndAnswersAsStored() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 1)
        _ = try await prepared.rows("CREATE TABLE t (i INTEGER, f REAL, s TEXT, n TEXT)", [])
        for number in 1...20 {
            _ = try await prepared.rows(
                "INSERT INTO t (i, f, s, n) VALUES (?1, ?2, ?3, ?4)",
                [.integer(number), .float(Double(number) / 2), .text("row \(number)"), .null])
        }
        let rows = try await prepared.rows("SELECT i, f, s, n FROM t WHERE i > ?1 ORDER BY i", [.integer(18)])
        #expect(
            rows == [
                [.integer(19), .float(9.5), .text("row 19"), .null], [.integer(20), .float(10), .text("row 20"), .null]
            ])
        // CREATE, INSERT and SELECT: three statements, however often they ran.
        #expect(prepared.preparedStatementCount == 3)
        await prepared.close()
    }

    @Test("44 §4: a statement whose plan looked at a bound value runs again without being prepared again")
    func test_44_4_rebindingDoesNotPrepareAgain() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 1)
        _ = try await prepared.rows("CREATE TABLE s (id TEXT PRIMARY KEY, counter INTEGER NOT NULL)", [])
        _ = try await prepared.rows("CREATE TABLE r (hash TEXT PRIMARY KEY, session_id TEXT NOT NULL)", [])
        _ = try await prepared.rows("INSERT INTO s (id, counter) VALUES ('a', 7)", [])
        for number in 0..<10 {
            _ = try await prepared.rows("INSERT INTO r (hash, session_id) VALUES (?1, 'a')", [.text("h\(number)")])
        }
        // The find's shape: SQLite's plan of a join on `hash = ?1` looks at the bound value, and clearing the
        // bindings after each call then expired the statement (it was prepared again on every call).
        for number in 0..<10 {
            let rows = try await prepared.rows(
                "SELECT s.counter FROM r JOIN s ON s.id = r.session_id WHERE r.hash = ?1", [.text("h\(number)")])
            #expect(rows == [[.integer(7)]])
        }
        #expect(prepared.reprepareCount == 0)
        await #expect(throws: PreparedSQLiteError.self) {
            try await prepared.rows("UPDATE s SET counter = ?1 WHERE id = 'a' AND counter = ?2", [.integer(1)])
        }
        #expect(try await prepared.rows("SELECT counter FROM s", []) == [[.integer(7)]])
        await prepared.close()
    }

    @Test("44 §4: a bad statement or a refused write is an error, and the connection goes on")
    func test_44_4_errorsLeaveTheConnectionUsable() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 2)
        _ = try await prepared.rows("CREATE TABLE u (id TEXT PRIMARY KEY)", [])
        await #expect(throws: PreparedSQLiteError.self) { try await prepared.rows("SELEKT nothing", []) }
        _ = try await prepared.rows("INSERT INTO u (id) VALUES (?1)", [.text("a")])
        await #expect(throws: PreparedSQLiteError.self) {
            try await prepared.rows("INSERT INTO u (id) VALUES (?1)", [.text("a")])
        }
        _ = try await prepared.rows("INSERT INTO u (id) VALUES (?1)", [.text("b")])
        #expect(try await prepared.rows("SELECT count(*) FROM u", []) == [[.integer(2)]])
        await prepared.close()
    }

    @Test("44 §4: concurrent conditional updates of one row on several connections: exactly one wins")
    func test_44_4_concurrentConditionalUpdatesOneWins() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 2)
        _ = try await prepared.rows("CREATE TABLE s (id TEXT PRIMARY KEY, counter INTEGER)", [])
        _ = try await prepared.rows("INSERT INTO s (id, counter) VALUES ('x', 0)", [])
        let wins = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await prepared.rows(
                        "UPDATE s SET counter = 1 WHERE id = 'x' AND counter = 0 RETURNING id", []
                    ).count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wins == 1)
        await prepared.close()
    }

    @Test(
        "44 §4: a call runs on the caller's thread unless it would wait: a write that meets another connection's lock goes to a pool thread, waits there and lands once the lock is gone; reads go on meanwhile"
    )
    func test_44_4_onlyAWaitingCallIsHandedOff() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 2)
        _ = try await prepared.rows("CREATE TABLE w (id INTEGER PRIMARY KEY)", [])
        _ = try await prepared.rows("INSERT INTO w (id) VALUES (1)", [])
        #expect(prepared.handOffs == 0, "nothing waited, nothing was handed off")
        // Another connection (as Fluent's are) takes the write lock and keeps it.
        let holder = try PreparedSQLite(path: path, connections: 1)
        _ = try await holder.rows("BEGIN IMMEDIATE", [])

        let write = Task { try await prepared.rows("INSERT INTO w (id) VALUES (2) RETURNING id", []) }
        let readWhileLocked = try await prepared.rows("SELECT count(*) FROM w", [])
        let handedOff = try await eventually { prepared.handOffs == 1 }
        _ = try await holder.rows("COMMIT", [])
        let written = try await write.value

        #expect(readWhileLocked == [[.integer(1)]], "a read in WAL mode does not wait for the writer")
        #expect(handedOff, "the locked write went to the pool")
        #expect(written == [[.integer(2)]])
        #expect(try await prepared.rows("SELECT count(*) FROM w", []) == [[.integer(2)]], "and landed once")
        await holder.close()
        await prepared.close()
    }

    @Test(
        "44 §4: the pool's own connections take turns at the write lock: two callers writing at once never hand each other off, and every row lands"
    )
    func test_44_4_writersOfThePoolTakeTurnsWithoutHandOffs() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 2)
        _ = try await prepared.rows("CREATE TABLE t (writer INTEGER, n INTEGER)", [])
        // As many writers as connections (as many as event loops), each writing as fast as it can: without
        // the turns, one finds the other's write lock on most writes and goes to the pool.
        try await Self.concurrently(2) { writer in
            for n in 0..<150 {
                _ = try await prepared.rows(
                    "INSERT INTO t (writer, n) VALUES (?1, ?2)", [.integer(writer), .integer(n)])
            }
        }
        #expect(prepared.handOffs == 0, "no writer of the pool waited for another on a pool thread")
        #expect(try await prepared.rows("SELECT count(*) FROM t", []) == [[.integer(300)]])
        await prepared.close()
    }

    @Test(
        "44 §4: a checkpoint is due at 1,000 frames not yet copied, not at a WAL of 1,000 frames: a WAL that could not start again is not checkpointed after every commit"
    )
    func test_44_4_checkpointIsDueAtFramesNotYetCopied() {
        #expect(PreparedSQLite.checkpointIsDue(walFrames: 1000, copied: 0))
        #expect(!PreparedSQLite.checkpointIsDue(walFrames: 999, copied: 0))
        #expect(!PreparedSQLite.checkpointIsDue(walFrames: 1500, copied: 1400), "100 new frames after a checkpoint")
        #expect(PreparedSQLite.checkpointIsDue(walFrames: 2400, copied: 1400))
        #expect(!PreparedSQLite.checkpointIsDue(walFrames: 30, copied: 1400), "the WAL started again: 30 new frames")
        #expect(PreparedSQLite.checkpointIsDue(walFrames: 1200, copied: 1400), "started again and 1,200 frames long")
    }

    @Test(
        "44 §4: under steady writes and reads the WAL starts again after checkpoints instead of growing with every write"
    )
    func test_44_4_walStartsAgainUnderSteadyLoad() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 2)
        _ = try await prepared.rows("CREATE TABLE c (id INTEGER PRIMARY KEY, body TEXT)", [])
        let page = String(repeating: "x", count: 4000)
        // Two writers and a reader at once, as two event loops refreshing are: about 8,000 WAL frames in all.
        try await Self.concurrently(2) { writer in
            for n in 0..<2000 {
                _ = try await prepared.rows(
                    "INSERT INTO c (id, body) VALUES (?1, ?2)", [.integer(writer * 10_000 + n), .text(page)])
                if n % 50 == 0 { _ = try await prepared.rows("SELECT count(*) FROM c", []) }
            }
        }
        let walBytes = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
        #expect(prepared.checkpoints >= 1)
        // About 18,000 frames (75 MB) went through it: never started again, it holds them all. Started again
        // after checkpoints it held about 2,000 here (8–9 MB); the bound leaves room for a pool thread a busy machine
        // seldom runs.
        #expect(walBytes < 8000 * 4096, "the WAL is \(walBytes) bytes")
        #expect(try await prepared.rows("SELECT count(*) FROM c", []) == [[.integer(4000)]])
        await prepared.close()
    }

    @Test(
        "44 §4: the connections never checkpoint on a caller's commit; once the WAL holds 1,000 pages a pool thread checkpoints, and every row stays"
    )
    func test_44_4_checkpointsRunOnThePool() async throws {
        let path = Self.temporaryFile()
        defer { Self.removeDatabase(path) }
        let prepared = try PreparedSQLite(path: path, connections: 2)
        _ = try await prepared.rows("CREATE TABLE c (id INTEGER PRIMARY KEY, body TEXT)", [])
        let page = String(repeating: "x", count: 4000)
        for id in 1...100 {
            _ = try await prepared.rows("INSERT INTO c (id, body) VALUES (?1, ?2)", [.integer(id), .text(page)])
        }
        let beforeTheThreshold = prepared.checkpoints
        for id in 101...1200 {
            _ = try await prepared.rows("INSERT INTO c (id, body) VALUES (?1, ?2)", [.integer(id), .text(page)])
        }
        let checkpointed = try await eventually { prepared.checkpoints >= 1 }

        #expect(beforeTheThreshold == 0, "100 rows: no checkpoint yet")
        #expect(checkpointed, "past 1,000 pages the pool checkpointed")
        #expect(try await prepared.rows("SELECT count(*) FROM c", []) == [[.integer(1200)]])
        await prepared.close()
    }

    @Test("44 §4: latchd's refresh reads and rotates on the prepared connections, each statement prepared once")
    func test_44_4_refreshRunsOnPreparedConnections() async throws {
        try await withServer(.sqlite) { server in
            let prepared = try #require(server.app.latch.rotation.store.prepared?.sqlite, "an SQLite file opens them")
            #expect(prepared.preparedStatementCount == 0)
            var tokens = try await server.signUp()
            for _ in 0..<3 {
                let refreshed = try await server.refresh(tokens.refreshToken)
                try #require(refreshed.status == 200, "\(refreshed.text)")
                tokens = try refreshed.decode(TokenResponse.self)
            }
            // The find and the rotation, on whichever of the connections ran them: at least one
            // preparation each, and no more than one per connection.
            let connections = Array(server.app.eventLoopGroup.makeIterator()).count
            #expect((2...(2 * connections)).contains(prepared.preparedStatementCount))
        }
    }
}
