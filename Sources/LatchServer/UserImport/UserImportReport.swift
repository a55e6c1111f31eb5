/// What an import did (issue 45 §1): how many lines made a user, changed one, changed nothing, or were
/// refused, and each refused line with its number (1-based) and reason.
public struct UserImportReport: Codable, Sendable, Equatable {
    public var imported = 0
    public var updated = 0
    public var unchanged = 0
    public var refused: [RefusedLine] = []
    /// Whether this was `--dry-run`: the counts say what would happen, nothing changed.
    public var dryRun = false

    /// One refused line.
    public struct RefusedLine: Codable, Sendable, Equatable {
        public let line: Int
        public let reason: String
        public let detail: String
    }

    /// Lines read.
    public var lines: Int { imported + updated + unchanged + refusedCount }

    /// At most this many refused lines are listed (the count goes on).
    static let listedRefusals = 1_000
    public var refusedCount = 0

    mutating func refuse(line: Int, _ refusal: UserImportRefusal) {
        refusedCount += 1
        if refused.count < Self.listedRefusals {
            refused.append(RefusedLine(line: line, reason: refusal.reason, detail: refusal.detail))
        }
    }

    enum CodingKeys: String, CodingKey {
        case imported, updated, unchanged, refused
        case refusedCount = "refused_count"
        case dryRun = "dry_run"
    }
}
