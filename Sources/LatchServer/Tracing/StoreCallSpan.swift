/// What a store call's span says (issue 29 §2): the statement's operation and its first table, read from the
/// SQL text, which holds placeholders, never values; the text itself is not kept. Named as OpenTelemetry's
/// database conventions name a client span: `SELECT users`, or the operation alone when no table is found.
struct StoreCallSpan: Equatable, Sendable {
    let operation: String
    let table: String?

    var name: String { table.map { "\(operation) \($0)" } ?? operation }

    /// The operation (the first keyword, upper case; `WITH …` is `WITH`) and, for a statement on rows, the table
    /// after `FROM`, `INTO`, or `UPDATE`, of `sql`.
    init(sql: String) {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "(" || $0 == "," })
        operation = words.first.map { $0.uppercased() } ?? "SQL"
        var table: String?
        // Only statements on rows name a table here (a schema change's words are not worth parsing).
        let readsRows = ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains(operation)
        for (index, word) in words.enumerated() where readsRows && index + 1 < words.count {
            if ["FROM", "INTO", "UPDATE"].contains(word.uppercased()) {
                let name = words[index + 1].filter { $0 != "\"" && $0 != "`" && $0 != ";" }
                if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) {
                    table = String(name)
                    break
                }
            }
        }
        self.table = table
    }

    init(operation: String, table: String?) {
        self.operation = operation
        self.table = table
    }
}
