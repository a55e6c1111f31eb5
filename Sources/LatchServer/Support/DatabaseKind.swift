/// Which SQL database Latch runs on, decided once from the configuration (`LatchConfig.database`)
/// and handed to whatever writes SQL that differs between the two.
enum DatabaseKind: Sendable, Equatable {
    /// SQLite: one writer at a time; no `FOR UPDATE` / `FOR SHARE`, no writes in `WITH`, no triggers
    /// that notify.
    case sqlite
    /// PostgreSQL: row locks, prepared statements, `NOTIFY`.
    case postgresql
}

extension LatchConfig.DatabaseLocation {
    /// The kind of database at this location.
    var kind: DatabaseKind {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgresql
        }
    }
}

extension LatchServices {
    /// The kind of database this instance runs on.
    var databaseKind: DatabaseKind { config.database.kind }
}
