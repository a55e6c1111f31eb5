import FluentKit
import Foundation
import LatchCore

/// Every kind of security notice latchd mails (issue 19 §3): the notice of a declared change
/// (`SecurityChange.Kind` whose recipe mails, issue 44 §2: derived from the change, not restated) and
/// the new-device sign-in, which is no change of the account. Each is queued by
/// `LatchServices.sendSecurityNotice` in the transaction of the change it tells of (issue 20 §1): the
/// notice commits with the change or neither does, so a change whose notice cannot be queued (the
/// notice lane is full, a write fails) does not happen and the request answers the refusal (503
/// `delivery_queue_full` with `retry_after`, or 429 from the owner's budget below).
///
/// A new kind is a new case of `SecurityChange.Kind`, which `SecurityNoticeTransactionTests` refuses
/// until it has a scenario proving the change is refused and nothing changed when the queue is full.
enum SecurityNotice: Hashable, Sendable, CaseIterable {
    /// The notice of a change (`SecurityChange.recipe(kind).mails`).
    case change(SecurityChange.Kind)
    /// A sign-in from a device the account did not know (with the device remembered).
    case newDeviceSignIn

    /// Every notice: the changes that mail, and the new-device sign-in.
    static var allCases: [SecurityNotice] {
        SecurityChange.Kind.allCases.filter { SecurityChange.recipe($0).mails }.map(SecurityNotice.change)
            + [.newDeviceSignIn]
    }

    /// The name a digest row stores: the change's own, except the two that were named before the
    /// changes were declared and stay as they were.
    var rawValue: String {
        switch self {
        case .newDeviceSignIn: "new_device_sign_in"
        case .change(.totpRemoved): "totp_disabled"
        case .change(.phoneAdded): "phone_linked"
        case .change(let kind): kind.rawValue
        }
    }

    init?(rawValue: String) {
        guard let notice = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = notice
    }
}

/// Who pays for a security notice from the account's hourly budget (`LATCH_SECURITY_MAILS_PER_HOUR`,
/// issue 20 §2; issue 28 §2: per session, so a thief's session cannot spend the owner's share).
enum SecurityNoticeCharge: Sendable, Equatable {
    /// Not charged: a removal, the recovery path, an operator, a sign-in.
    case free
    /// Charged to the acting session's share of the account's budget.
    case session(user: UUID, session: UUID?)

    /// The budget's key in `guess_budgets`.
    var key: GuardKey? {
        switch self {
        case .free: nil
        case .session(let user, let session): .notices(user: user, session: session)
        }
    }
}

/// A security notice queued on a database that is not a transaction: it would not commit with its
/// change (a programming error, answered 500 so a test finds it).
struct NoticeOutsideTransaction: Error, CustomStringConvertible {
    let notice: SecurityNotice
    var description: String { "security notice \(notice.rawValue) queued outside its change's transaction" }
}

extension LatchServices {
    /// Queues the security notice `mail` (of kind `notice`) to `address`, with a fresh one-time freeze
    /// link for `user`'s account (issue 19 §3), in the notice lane of the queue, on `database` — the
    /// transaction of the change (issue 20 §1): if this throws, the caller's transaction rolls back and
    /// the change does not happen. A charged notice is first charged to its session's share of the
    /// account's hourly budget (429 RATE_LIMITED with `retry_after` once spent, issue 20 §2). A notice that
    /// `mayBeFolded`, within the digest window of the account's last notice mail
    /// (`LATCH_NOTICE_DIGEST_SECONDS`), is a `notice_digests` row instead, written in the same transaction,
    /// and mailed in the next digest (`NoticeDigests`). `SecurityChanges.apply` decides both.
    func sendSecurityNotice(
        _ notice: SecurityNotice, _ mail: MailTemplates.Mail, to address: String, user: UUID,
        charge: SecurityNoticeCharge, mayBeFolded: Bool, on database: any Database
    ) async throws {
        guard database.inTransaction else { throw NoticeOutsideTransaction(notice: notice) }
        let now = clock.epochSeconds
        try await chargeNotice(charge, now: now, on: database)
        if mayBeFolded,
            try await NoticeDigests.fold(
                notice, language: mail.language, to: address, user: user, services: self, now: now, on: database)
        {
            return
        }
        try await mailNotice(mail, to: address, user: user, now: now, on: database)
    }

    /// Charges `charge`; 429 RATE_LIMITED with `retry_after` when its share is spent.
    func chargeNotice(_ charge: SecurityNoticeCharge, now: Double, on database: any Database) async throws {
        guard let key = charge.key else { return }
        let budget = GuessBudget(limit: config.securityMailsPerHour, window: 3600)
        if case .spent(let until) = try await budgets.charge(key, budget, now: now, on: database) {
            throw LatchError.rateLimited(retryAfter: max(1, Int((until.timeIntervalSince1970 - now).rounded(.up))))
        }
    }

    /// Texts the notice to `phone` (an account without an email, issue 28 §2): a short text with a fresh
    /// one-time freeze link, in the notice lane, on `database` (the change's transaction).
    func textSecurityNotice(
        _ notice: SecurityNotice, language: LatchLanguage, to phone: String, user: UUID, charge: SecurityNoticeCharge,
        on database: any Database
    ) async throws {
        guard database.inTransaction else { throw NoticeOutsideTransaction(notice: notice) }
        let now = clock.epochSeconds
        try await chargeNotice(charge, now: now, on: database)
        let token = try await FreezeTokens.mint(for: user, now: now, on: database)
        let text = SMSCodeText.securityNotice(
            notice, freezeLink: FreezeTokens.link(issuer: config.issuer, token: token), language: language)
        let message = OutgoingMessage(
            to: phone, channel: OutgoingMessage.smsChannel, subject: "", body: text, code: nil, createdAt: clock.now,
            lane: .notice)
        try await delivery.deliver(message, on: database)
    }

    /// Queues the notice (or digest) `mail` to `address` in the notice lane with a fresh one-time freeze
    /// link for `user`'s account, on `database` (a transaction).
    func mailNotice(_ mail: MailTemplates.Mail, to address: String, user: UUID, now: Double, on database: any Database)
        async throws
    {
        var mail = mail
        let token = try await FreezeTokens.mint(for: user, now: now, on: database)
        mail.freezeLink = FreezeTokens.link(issuer: config.issuer, token: token)
        try await send(mail, to: address, lane: .notice, on: database)
    }
}
