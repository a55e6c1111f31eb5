import FluentKit
import Foundation
import LatchCore

/// Who made a security change.
struct SecurityChangeActor: Sendable {
    let user: UUID
    /// The session that made it (nil: an operator, a freeze link, the recovery path).
    var session: UUID?
    var ip: String?
    var language: LatchLanguage
    /// The event's `actor` where someone other than a session acted: `freeze_link`, `operator`.
    var actor: String?

    init(user: UUID, session: UUID? = nil, ip: String?, language: LatchLanguage, actor: String? = nil) {
        self.user = user
        self.session = session
        self.ip = ip
        self.language = language
        self.actor = actor
    }
}

/// Carries out a `SecurityChange` (issue 28 §1): its event, its hold and its notice, in the change's
/// transaction, so the three commit with the change or not at all (issue 20 §1). The only place that
/// composes them: a route names the change and calls `apply`.
///
/// - The hold starts for every change that declares one, whatever the account's age, except an
///   addition by the session that registered the account while the account is younger than the hold
///   (a new user setting up is not a thief; a thief who signed in to a day-old account is).
/// - The notice goes to the account's email and to the change's other address (the removed one, or the
///   one removed before this one was added); an account without an email gets it by SMS on its phone.
/// - Additions and changes are charged to the acting session's share of the notice budget, so one
///   session cannot spend the owner's; removals, the recovery path and operators are never charged.
///   Additions are mailed at once, never folded into a digest.
struct SecurityChanges: Sendable {
    let services: LatchServices

    /// A change applied on a database that is not a transaction: it would not commit with its change (a
    /// programming error, answered 500 so a test finds it).
    struct OutsideTransaction: Error, CustomStringConvertible {
        let kind: SecurityChange.Kind
        var description: String { "security change \(kind.rawValue) applied outside its transaction" }
    }

    /// A change declared as ending the other sessions (`Recipe.endsOtherSessions`) applied while one is
    /// still live: the route forgot to end them first (a programming error, answered 500 so a test finds
    /// it, and nothing of the change commits).
    struct OtherSessionsLeftLive: Error, CustomStringConvertible {
        let kind: SecurityChange.Kind
        var description: String { "security change \(kind.rawValue) applied while another session is live" }
    }

    /// Applies `change` made by `actor`, on `database` (the change's transaction). Returns the hold's end
    /// when one started.
    @discardableResult
    func apply(_ change: SecurityChange, by actor: SecurityChangeActor, on database: any Database) async throws
        -> Double?
    {
        guard database.inTransaction else { throw OutsideTransaction(kind: change.kind) }
        let recipe = change.recipe
        let now = services.clock.epochSeconds
        if recipe.endsOtherSessions {
            try await requireOtherSessionsEnded(change.kind, by: actor, now: now, on: database)
        }
        try await services.events.record(
            recipe.event, user: actor.user, session: actor.session, ip: actor.ip, now: now, actor: actor.actor,
            detail: recipe.event.rawValue == change.kind.rawValue ? nil : change.kind.rawValue,
            facts: change.outboundFacts, on: database)
        guard recipe.hold != nil || recipe.mails else { return nil }
        // The account's row, read once for the hold's exemption and the notice's address.
        let account = try await services.accounts.setup(of: actor.user, on: database)
        var holdUntil: Double?
        if let reason = recipe.hold, try !isSettingUp(recipe, by: actor, account: account, now: now) {
            holdUntil = try await services.holds.start(
                reason, user: actor.user, session: actor.session, ip: actor.ip, now: now, on: database)
        }
        if let notice = change.notice {
            let email = account?.email
            try await mail(notice, of: change, by: actor, email: email, on: database)
        }
        return holdUntil
    }

    /// Refuses with 429 RATE_LIMITED (`retry_after`) when `kind`'s notice would be refused by the acting
    /// session's spent share of the notice budget; charges nothing. Called before a change uses up
    /// something that cannot be given back (an emailed code), issue 28 §2.
    func admit(_ kind: SecurityChange.Kind, by actor: SecurityChangeActor, on database: any Database) async throws {
        let recipe = SecurityChange.recipe(kind)
        guard recipe.mails, recipe.isCharged else { return }
        let now = services.clock.epochSeconds
        let key = GuardKey.notices(user: actor.user, session: actor.session)
        let budget = GuessBudget(limit: services.config.securityMailsPerHour, window: 3600)
        if let until = try await services.budgets.spentUntil(key, budget, now: now, on: database) {
            throw LatchError.rateLimited(retryAfter: max(1, Int((until - now).rounded(.up))))
        }
    }

    /// Throws `OtherSessionsLeftLive` when a session of the user other than the acting one is still live.
    /// `sessionEnded` ends one chosen session (its route checked that one), so it is not asked about the rest.
    private func requireOtherSessionsEnded(
        _ kind: SecurityChange.Kind, by actor: SecurityChangeActor, now: Double, on database: any Database
    ) async throws {
        guard kind != .sessionEnded else { return }
        let live = try await SessionStore().hasLiveSession(
            of: actor.user, otherThan: actor.session, now: now, on: database)
        guard !live else { throw OtherSessionsLeftLive(kind: kind) }
    }

    /// Whether `actor`'s addition is a new user setting up: made by the session that registered the
    /// `account` (its `users` row), while the account is younger than the hold.
    private func isSettingUp(
        _ recipe: SecurityChange.Recipe, by actor: SecurityChangeActor, account: AccountStore.Setup?, now: Double
    ) throws -> Bool {
        guard recipe.category == .addition, let session = actor.session, let account else { return false }
        let holds = services.holds
        guard holds.hours > 0, now - account.createdAt < holds.length
        else { return false }
        return account.registeringSession == session
    }

    /// Mails (or texts) `notice` of `change` to the account's address `email` and the change's other one.
    private func mail(
        _ notice: SecurityNotice, of change: SecurityChange, by actor: SecurityChangeActor, email: String?,
        on database: any Database
    ) async throws {
        let recipe = change.recipe
        var addresses = email.map { [$0] } ?? []
        if let other = change.alsoNotify, other != email { addresses.append(other) }
        var charge: SecurityNoticeCharge =
            recipe.isCharged ? .session(user: actor.user, session: actor.session) : .free
        if addresses.isEmpty {
            guard let phone = try await services.identities.phoneNumber(of: actor.user, on: database) else { return }
            try await services.textSecurityNotice(
                notice, language: actor.language, to: phone, user: actor.user, charge: charge, on: database)
            return
        }
        for address in addresses {
            let other = address != email
            guard let mail = MailTemplates.notice(of: change, toOtherAddress: other, language: actor.language) else {
                return
            }
            try await services.sendSecurityNotice(
                notice, mail, to: address, user: actor.user, charge: charge, mayBeFolded: recipe.mayBeFolded,
                on: database)
            charge = .free // one change, one charge
        }
    }
}

extension LatchServices {
    /// The one service that applies security changes (issue 28 §1).
    var securityChanges: SecurityChanges { SecurityChanges(services: self) }
}
