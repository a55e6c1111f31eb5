import Foundation
import LatchCore

/// What one verification needs, decided when it starts (issue 30 §2) and kept on its row: how many
/// different kinds must pass, which may count, and the amount, unit and target its emailed code's mail
/// names and the daily limit adds.
struct VerificationPlan: Equatable, Sendable {
    var requiredFactors = 1
    /// The kinds that may count (nil: any).
    var kinds: Set<VerificationMethodKind>?
    var amount: PolicyAmount?
    var unit: String?
    /// The locked parameter's value (or the `address` parameter), when there is one.
    var target: String?

    /// Whether `kind` may count toward this verification.
    func allows(_ kind: VerificationMethodKind) -> Bool { kinds?.contains(kind) ?? true }

    /// Kinds as a row stores them: comma-separated raw values, in the given order.
    static func list(_ kinds: [VerificationMethodKind]) -> String { kinds.map(\.rawValue).joined(separator: ",") }

    static func list(_ kinds: Set<VerificationMethodKind>) -> String {
        list(VerificationMethodKind.allCases.filter(kinds.contains))
    }

    /// A stored list read back (unknown names, which only an older or newer version writes, are skipped).
    static func kindList(_ list: String) -> [VerificationMethodKind] {
        list.split(separator: ",").compactMap { VerificationMethodKind(rawValue: String($0)) }
    }

    static func kindSet(_ list: String) -> Set<VerificationMethodKind> { Set(kindList(list)) }
}
