import Foundation
import LatchCore

/// Every security-relevant change of an account, declared once (issue 28 §1): what it records, whether
/// it starts a hold and why, which notice it mails and to whom, whether it may be charged to the notice
/// budget or folded into a digest. `SecurityChanges.apply` carries a change out inside its transaction;
/// a route names the change and never composes the recipe.
///
/// `MutatingRoutes.declarations` names, for every route that changes something, the changes it makes
/// (or why it makes none); `SecurityChangeDeclarationTests` fails when a route is missing there.
struct SecurityChange: Sendable, Equatable {
    /// What changed.
    enum Kind: String, Sendable, CaseIterable {
        case totpAdded = "totp_added"
        case totpRemoved = "totp_removed"
        case totpResetByOperator = "totp_reset_by_operator"
        case fundPasswordAdded = "fund_password_added"
        case fundPasswordChanged = "fund_password_changed"
        case fundPasswordResetByOperator = "fund_password_reset_by_operator"
        case passkeyAdded = "passkey_added"
        case passkeyRemoved = "passkey_removed"
        case deviceKeyAdded = "device_key_added"
        case deviceKeyRemoved = "device_key_removed"
        /// An Apple or WeChat identity linked.
        case identityLinked = "identity_linked"
        /// An Apple or WeChat identity unlinked.
        case identityUnlinked = "identity_unlinked"
        case phoneAdded = "phone_added"
        case phoneRemoved = "phone_removed"
        case emailAdded = "email_added"
        /// The account's email removed (its password with it: password sign-in needs the address).
        case emailRemoved = "email_removed"
        case passwordChanged = "password_changed"
        /// The password reset by emailed code: the recovery path.
        case passwordReset = "password_reset"
        case antiPhishingCodeSet = "anti_phishing_code_set"
        case antiPhishingCodeRemoved = "anti_phishing_code_removed"
        case newDeviceNoticeTurnedOff = "new_device_notice_turned_off"
        /// "Verify unusual sign-ins" turned off.
        case unusualSignInCheckTurnedOff = "unusual_sign_in_check_turned_off"
        /// Every other session signed out by this one.
        case otherSessionsEnded = "other_sessions_ended"
        /// One other session signed out by this one.
        case sessionEnded = "session_ended"
        case frozen
        case unfrozen
        /// A value never used before (e.g. a withdrawal address) was time-locked by the verification
        /// policy (issue 30 §1): the owner hears of it, with the value, while it is still locked.
        case newValueLocked = "new_value_locked"
    }

    /// Who the change is for, as the notice budget and the digest see it.
    enum Category: Sendable, Equatable {
        /// A new factor or way in: mailed at once (never folded), starts the hold, charged to the session.
        case addition
        /// A factor, way in or session taken away: mailed, never charged (the owner must hear of every one).
        case removal
        /// Another change a session makes (a password, a setting): mailed, charged to the session.
        case change
        /// The owner's way back (reset by emailed code, unfreeze): never charged, never folded.
        case recovery
        /// An operator's decision: never charged.
        case byOperator
    }

    /// What a change does, in one place.
    struct Recipe: Sendable, Equatable {
        let event: SecurityEventKind
        let category: Category
        /// The hold it starts (nil: none).
        let hold: SecurityHoldReason?
        /// Whether it mails its notice (`SecurityNotice.change`; none: see `silentReason`).
        let mails: Bool
        /// Whether the change itself ends sessions other than the acting one.
        let endsOtherSessions: Bool

        /// Charged to the acting session's share of the notice budget (`LATCH_SECURITY_MAILS_PER_HOUR`).
        var isCharged: Bool { category == .addition || category == .change }
        /// May be folded into the next notice digest (`LATCH_NOTICE_DIGEST_SECONDS`).
        var mayBeFolded: Bool { category == .change }
    }

    let kind: Kind
    /// A name the notice shows (a passkey's or a device's).
    var name: String?
    /// An address that also gets the notice: the removed address, or the one removed before this one was added.
    var alsoNotify: String?
    /// What a password reset ended and kept, for its mail.
    var reset: ResetOutcome?
    /// For `newValueLocked`: the action, and when the value's lock ends (`name` is the value).
    var lockedAction: String?
    var lockedUntil: Double?

    /// What a password reset ended, and the ways in and factors it kept (its mail lists both).
    struct ResetOutcome: Sendable, Equatable {
        var ended: SecurityReset.Ended
        var kept: [String]
    }

    init(_ kind: Kind, name: String? = nil, alsoNotify: String? = nil, reset: ResetOutcome? = nil) {
        self.kind = kind
        self.name = name
        self.alsoNotify = alsoNotify
        self.reset = reset
    }

    var recipe: Recipe { Self.recipe(kind) }

    /// The notice it mails, when its recipe mails one.
    var notice: SecurityNotice? { recipe.mails ? .change(kind) : nil }

    /// The one table of recipes.
    static func recipe(_ kind: Kind) -> Recipe {
        switch kind {
        case .totpAdded: Recipe(.totpActivated, .addition, hold: .totpAdded, mails: true)
        case .totpRemoved: Recipe(.totpDisabled, .removal, hold: .totpDisabled, mails: true)
        case .totpResetByOperator: Recipe(.totpReset, .byOperator, hold: .totpReset, mails: true)
        case .fundPasswordAdded:
            Recipe(.fundPasswordSet, .addition, hold: .fundPasswordAdded, mails: true)
        case .fundPasswordChanged:
            Recipe(.fundPasswordChanged, .change, hold: .fundPasswordChanged, mails: true)
        case .fundPasswordResetByOperator:
            Recipe(.fundPasswordReset, .byOperator, hold: .fundPasswordReset, mails: true)
        case .passkeyAdded: Recipe(.passkeyAdded, .addition, hold: .passkeyAdded, mails: true)
        case .passkeyRemoved: Recipe(.passkeyRemoved, .removal, hold: nil, mails: true)
        case .deviceKeyAdded: Recipe(.deviceBound, .addition, hold: .deviceKeyAdded, mails: true)
        case .deviceKeyRemoved: Recipe(.deviceUnbound, .removal, hold: nil, mails: true)
        case .identityLinked: Recipe(.identityLinked, .addition, hold: .identityLinked, mails: true)
        case .identityUnlinked: Recipe(.identityUnlinked, .removal, hold: nil, mails: true)
        case .phoneAdded: Recipe(.identityLinked, .addition, hold: .phoneChanged, mails: true)
        case .phoneRemoved: Recipe(.identityUnlinked, .removal, hold: nil, mails: true)
        case .emailAdded: Recipe(.identityLinked, .addition, hold: .emailChanged, mails: true)
        case .emailRemoved: Recipe(.identityUnlinked, .removal, hold: .emailChanged, mails: true)
        case .passwordChanged:
            Recipe(.passwordChanged, .change, hold: .passwordChanged, mails: true, endsOthers: true)
        case .passwordReset:
            Recipe(.passwordReset, .recovery, hold: .passwordReset, mails: true, endsOthers: true)
        case .antiPhishingCodeSet: Recipe(.antiPhishingCodeChanged, .change, hold: nil, mails: true)
        case .antiPhishingCodeRemoved:
            Recipe(.antiPhishingCodeChanged, .change, hold: nil, mails: true)
        case .newDeviceNoticeTurnedOff:
            Recipe(.securitySettingsChanged, .change, hold: nil, mails: true)
        case .unusualSignInCheckTurnedOff:
            Recipe(.securitySettingsChanged, .change, hold: nil, mails: true)
        case .otherSessionsEnded:
            Recipe(.otherSessionsRevoked, .removal, hold: nil, mails: true, endsOthers: true)
        case .sessionEnded: Recipe(.sessionRevoked, .removal, hold: nil, mails: true, endsOthers: true)
        // The freeze ends every session, so the owner sees it at once; its mail would carry a freeze
        // link to an account already frozen. The way back is the reset, whose mail tells.
        case .frozen: Recipe(.accountFrozen, .recovery, hold: nil, mails: false, endsOthers: true)
        case .unfrozen: Recipe(.accountUnfrozen, .recovery, hold: .unfrozen, mails: false)
        // A new address is a way out for money: mailed at once (never folded), charged to the session
        // that asked (so a thief's new addresses cannot spend the owner's share); the lock is the hold.
        case .newValueLocked: Recipe(.newValueLocked, .addition, hold: nil, mails: true)
        }
    }

    /// Why an addition starts no hold.
    static let unheldReason: [Kind: String] = [
        .newValueLocked:
            "the value's own time-lock is its hold; holding every action would let one request with a new address pause the owner's withdrawals"
    ]

    /// Why a change with no notice sends none.
    static let silentReason: [Kind: String] = [
        .frozen: "every session ends at once, which the owner sees; the reset that recovers the account mails",
        .unfrozen: "only the password reset by emailed code (whose mail tells) and an operator unfreeze"
    ]
}

extension SecurityChange.Recipe {
    fileprivate init(
        _ event: SecurityEventKind, _ category: SecurityChange.Category, hold: SecurityHoldReason?,
        mails: Bool, endsOthers: Bool = false
    ) {
        self.init(event: event, category: category, hold: hold, mails: mails, endsOtherSessions: endsOthers)
    }
}
