import FluentKit
import Foundation

/// What a freeze, a security hold or a security reset does to the phone's approvals (issue 43): ends
/// every one still open for the user, so nothing approved before the change lets anyone in after it.
/// A sign-in the phone approved but the web has not collected ends; so does every verification still
/// waiting for the phone.
enum PendingApprovals {
    static func end(of user: UUID, now: Double, on database: any Database) async throws {
        try await ApprovalStore().endApproved(of: user, now: now, on: database)
        try await PushApprovalStore().endOpen(of: user, now: now, on: database)
    }
}
