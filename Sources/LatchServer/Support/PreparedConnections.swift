/// The connections of latchd's own that keep the refresh path's statements prepared (issue 44 §4), in the
/// dialect the configuration chose where the database was opened.
enum PreparedConnections: Sendable {
    case sqlite(PreparedSQLite)
    case postgres(PreparedPostgres)

    /// The SQLite connections, when these are.
    var sqlite: PreparedSQLite? {
        if case .sqlite(let connections) = self { connections } else { nil }
    }

    /// The PostgreSQL client, when this is one.
    var postgres: PreparedPostgres? {
        if case .postgres(let client) = self { client } else { nil }
    }

    /// Closes them.
    func close() async {
        switch self {
        case .sqlite(let connections): await connections.close()
        case .postgres(let client): await client.close()
        }
    }
}
