import FluentKit
import Foundation
import LatchCore
import NIOHTTP1

extension AdminService {
    /// Users whose email or phone number starts with `query`, or whose id does (case-insensitive;
    /// nil or empty: everyone), in id order, `limit` at a time after `cursor`. Deleted accounts
    /// (tombstones) are not listed. The audit entry keeps the search text (`detail` `q=…`, at most
    /// 320 characters): who looked for whom is part of the record (issue 20 §6).
    public func findUsers(matching query: String?, cursor: String?, limit: Int?) async throws -> AdminUserPage {
        let text = (query ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        return try await audited("find_users", target: nil, detail: "q=" + String(text.prefix(320))) {
            let size = try Self.pageSize(limit)
            let after = try cursor.map(AdminCursor.user)
            guard text.count <= 320 else {
                throw LatchError(.validationFailed, field: "q", reasons: ["too_long"])
            }
            let ids = try await latch.accounts.liveIDs(matching: text, after: after, limit: size + 1, on: database)
            let pageIDs = Array(ids.prefix(size))
            let users = try await latch.accounts.users(pageIDs, on: database)
            let phones = try await latch.identities.phoneNumbers(of: pageIDs, on: database)
            let byID = Dictionary(uniqueKeysWithValues: users.compactMap { user in user.id.map { ($0, user) } })
            let page = pageIDs.compactMap { id in byID[id].map { $0.adminInfo(phone: phones[id]) } }
            let next = ids.count > size ? pageIDs.last.map(AdminCursor.after(user:)) : nil
            return AdminUserPage(users: page, nextCursor: next)
        }
    }

    /// One user in full: identities, live sessions, device keys, factors, locks and the latest 50
    /// security events. Nothing secret.
    public func user(_ id: String) async throws -> AdminUserDetail {
        try await onUser(id, action: "show_user") { user in
            let userID = try user.requireID()
            let now = latch.clock.epochSeconds
            let phone = try await latch.identities.phoneNumbers(of: [userID], on: database)[userID]
            let sessions = try await SessionStore().live(of: userID, now: now, on: database)
                .map {
                    AdminSession(
                        id: $0.id?.uuidString.lowercased() ?? "", deviceName: $0.deviceName,
                        deviceModel: $0.deviceModel,
                        platform: $0.platform, ip: $0.ip, createdAt: Date(timeIntervalSince1970: $0.createdAt),
                        lastActiveAt: Date(timeIntervalSince1970: $0.lastActiveAt), bound: $0.dpopJKT != nil)
                }
            let credentials = try await latch.deviceCredentials.all(of: userID, on: database).map(\.info)
            let factors = AdminFactors(
                totp: try await latch.totp.isActive(user: userID, on: database),
                fundPassword: try await FundPasswordStore().find(of: userID, on: database) != nil,
                biometric: !credentials.isEmpty)
            let events = try await latch.events.store.newest(of: userID, limit: 50, on: database).map(\.info)
            let holds = latch.holds
            let hold = try await holds.running(of: userID, now: now, on: database)
            return AdminUserDetail(
                user: user.adminInfo(phone: phone), identities: try await user.identities(on: database),
                sessions: sessions,
                deviceCredentials: credentials,
                passkeys: try await latch.passkeys.all(of: userID, on: database).map {
                    AdminPasskey(
                        id: $0.id?.uuidString.lowercased() ?? "", name: $0.name,
                        createdAt: Date(timeIntervalSince1970: $0.createdAt))
                },
                factors: factors,
                locks: try await locks(of: user, phone: phone, now: now), securityEvents: events,
                frozenAt: user.frozenAt.map(Date.init(timeIntervalSince1970:)), frozenBy: user.frozenBy,
                holds: hold.map { [holds.info($0)] } ?? [])
        }
    }

    /// The user's security events, newest first, `limit` (1–100, 50) after `cursor`, as the user sees
    /// them (`GET /v1/security-events`); the user detail shows only the newest 50.
    public func securityEvents(of id: String, cursor: String?, limit: Int?) async throws -> SecurityEventPage {
        try await onUser(id, action: "list_security_events") { user in
            try await SecurityEventPage.query(userID: user.requireID(), limit: limit, cursor: cursor, on: database)
        }
    }

    /// The audit log, newest first, `limit` entries after `cursor`.
    public func auditLog(cursor: String?, limit: Int?) async throws -> AdminAuditPage {
        try await audited("list_audit", target: nil) {
            let size = try Self.pageSize(limit)
            let before = try cursor.map(AdminCursor.auditEntry)
            let entries = try await AdminAuditStore().entries(before: before, limit: size + 1, on: database)
            let page = Array(entries.prefix(size))
            let next = entries.count > size ? page.last?.id.map(AdminCursor.after(auditEntry:)) : nil
            return AdminAuditPage(entries: page.map(\.info), nextCursor: next)
        }
    }

    /// `text%` for LIKE, with `\`, `%` and `_` in `text` escaped (ESCAPE '\').
    static func likePrefix(_ text: some StringProtocol) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "%"
    }
}

extension AdminService {
    /// The verification policy latchd runs (issue 30 §1), audited as `show_policy`.
    public func policy() async throws -> PolicyView {
        try await audited("show_policy", target: nil) {
            latch.config.verificationPolicy.view(file: latch.config.policyFile)
        }
    }
}
