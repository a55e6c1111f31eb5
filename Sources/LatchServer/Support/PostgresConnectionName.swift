/// The `application_name` of latchd's own PostgreSQL connections (the revocation listener, the prepared refresh
/// statements): their role, then the schema when one is set, so an operator (or a test, by schema) can tell them
/// apart in `pg_stat_activity`.
enum PostgresConnectionName {
    /// `role`, followed by the first schema of `searchPath` when there is one.
    static func of(_ role: String, searchPath: [String]?) -> String {
        ([role] + (searchPath?.prefix(1) ?? [])).joined(separator: " ")
    }
}
