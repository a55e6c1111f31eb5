import FluentKit
import FluentSQLiteDriver
import Foundation

/// The refresh hot path's two statements on SQLite, run through SQLiteNIO with `SQLiteData` binds and read
/// column by column (issue 21): SQLKit's `Encodable` binds and `Decodable` rows were about a tenth of a
/// refresh's CPU. The SQLite counterpart of `PostgresRefreshStatements`; values are stored as Fluent stores
/// them (a UUID as its upper-case text, a Bool as 0 or 1).
enum SQLiteRefreshStatements {
    static let find = """
        SELECT r.counter AS presented_counter, s.id, s.user_id, s.sealed_secret, s.counter, s.rotated_at,
          s.refresh_expires_at, s.revoked_at, s.created_at, s.dpop_jkt,
          u.email AS user_email, u.email_verified AS user_email_verified, u.nickname AS user_nickname,
          u.created_at AS user_created_at
        FROM refresh_tokens r
        JOIN sessions s ON s.id = r.session_id
        JOIN users u ON u.id = s.user_id
        WHERE r.token_hash = ?1
        """

    /// Moves the counter if it is still at ?6; the trigger of `AddSQLiteRotationTrigger` records the token.
    static let rotate = """
        UPDATE sessions SET counter = ?1, rotated_at = ?2, refresh_expires_at = ?3, last_active_at = ?2,
          rotated_token_hash = ?4
        WHERE id = ?5 AND counter = ?6 AND revoked_at IS NULL
        RETURNING id
        """

    static func rotateBinds(
        nextTokenHash: String, sessionID: UUID, next: Int, now: Double, expires: Double, counter: Int
    ) -> [SQLiteData] {
        [
            .integer(SQLiteInt64(next)), .float(now), .float(expires), .text(nextTokenHash),
            .text(UUIDText.uppercase(sessionID)),
            .integer(SQLiteInt64(counter))
        ]
    }
}

extension Database {
    /// Runs `sql` on SQLite directly; `nil` on any other database.
    func executeSQLite(_ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow]? {
        guard let sqlite = self as? any SQLiteDatabase else { return nil }
        return try await LatchTracing.storeCall(StoreCallSpan(sql: sql), system: "sqlite") {
            try await sqlite.query(sql, binds)
        }
    }
}

extension [SQLiteData] {
    /// Column `index`'s value, or a decoding error when it is NULL or of another kind.
    func value<Value: SQLiteDataConvertible>(_ index: Int, as type: Value.Type = Value.self) throws -> Value {
        guard let value = Value(sqliteData: self[index]) else {
            throw DecodingError.valueNotFound(Value.self, .init(codingPath: [], debugDescription: "column \(index)"))
        }
        return value
    }

    /// `nil` for NULL.
    func optionalValue<Value: SQLiteDataConvertible>(_ index: Int, as type: Value.Type = Value.self) throws
        -> Value?
    {
        self[index] == .null ? nil : try value(index, as: Value.self)
    }

    /// A UUID stored as text.
    func uuid(_ index: Int) throws -> UUID {
        guard let id = UUIDText.uuid(try value(index, as: String.self)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "column \(index) is not a UUID"))
        }
        return id
    }
}

extension SQLiteRow {
    /// The column's value, or a decoding error when it is missing, NULL or of another kind.
    func value<Value: SQLiteDataConvertible>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        guard let data = self.column(column), let value = Value(sqliteData: data) else {
            throw DecodingError.valueNotFound(Value.self, .init(codingPath: [], debugDescription: column))
        }
        return value
    }

    /// `nil` for NULL, as `decode(column:as: Optional<…>)` reads it.
    func optionalValue<Value: SQLiteDataConvertible>(_ column: String, as type: Value.Type = Value.self) throws
        -> Value?
    {
        guard let data = self.column(column), data != .null else { return nil }
        return try value(column, as: Value.self)
    }

    /// A UUID stored as text.
    func uuid(_ column: String) throws -> UUID {
        guard let id = UUIDText.uuid(try value(column, as: String.self)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(column) is not a UUID"))
        }
        return id
    }
}
