import FluentKit
import Foundation

/// The read of `verifications` that push approvals make (issue 43, issue 44 §1): the verification a
/// push approval stands for, whose amount, unit and target the phone shows.
extension VerificationStore {
    /// Verification `id`, whatever its state.
    func record(_ id: UUID, on database: any Database) async throws -> VerificationRecord? {
        try await VerificationRecord.find(id, on: database)
    }
}
