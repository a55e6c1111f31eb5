import FluentKit
import Foundation
import LatchCore

/// The sign-in with a proven identity (Apple, WeChat, SMS; C1), without HTTP: the routes make one
/// from their caller and database (`TokenService`), tests from an application's services and a database.
struct IdentitySignIn {
    let latch: LatchServices
    let db: any Database
    /// The client's address, for the session and the security events.
    let clientIP: String?
    /// The language of the mails (new device, sign-in code).
    let language: LatchLanguage
    /// The DPoP key the request proved: the new session is bound to it (issue 31 §1); nil: a bearer session.
    var dpopKey: String? = nil

    /// The new-device screening with the same services, database, address and language.
    private var screening: NewDeviceScreening {
        NewDeviceScreening(latch: latch, db: db, clientIP: clientIP, language: language)
    }

    /// Signs in the account holding `proven` (C1), creating it on first sign-in, and returns its first tokens.
    ///
    /// A first Apple sign-in joins an existing account by email only when Apple says the email is
    /// verified AND the account's email is verified too; otherwise it gets an account of its own.
    /// Sign-ins from a new device are screened as password sign-ins are (C8) when the account can
    /// receive a code (it has an email or TOTP); other accounts are told by a security event.
    func signIn(with proven: ProvenIdentity, device: DeviceInfo?) async throws -> TokenResponse {
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        let (user, created) = try await account(for: proven, now: seconds)
        try AccountDisabling.refuse(user) // before the new-device check mails a code
        try AccountFreezing.refuse(user)
        let userID = try user.requireID()
        try await AppleRefreshTokens.keep(proven, secrets: latch.secrets, identities: latch.identities, on: db)
        var canReceiveCode = user.email != nil
        if !canReceiveCode, !created { canReceiveCode = try await latch.totp.isActive(user: userID, on: db) }
        if created {
            try await screening.rememberDevice(Validate.deviceName(device?.id), of: userID)
        } else if canReceiveCode {
            try await screening.screen(user, device: device)
        } else {
            let deviceID = Validate.deviceName(device?.id)
            let known = if let deviceID { try await screening.isKnown(deviceID, of: userID) } else { false }
            let (latch, clientIP, language) = (self.latch, self.clientIP, self.language)
            // The device is remembered only with its notice queued (issue 20 §1).
            try await db.tracedTransaction { database in
                let screening = NewDeviceScreening(latch: latch, db: database, clientIP: clientIP, language: language)
                try await screening.rememberDevice(deviceID, of: userID)
                // Not created here, so the account has had a session: any device it does not know is new.
                if !known {
                    try await screening.notice(user, device: device)
                }
            }
        }
        return try await latch.startSession(
            for: user, device: device, ip: clientIP, event: created ? .registered : .signedIn,
            method: SignInMethod(proven.provider), boundTo: dpopKey, now: now, on: db
        )
        .tokens
    }

    /// The account of `proven`: the one holding the identity, or (Apple, both emails verified) the one
    /// with that email, which gets the identity linked; else a new account. `created` says which.
    private func account(for proven: ProvenIdentity, now: Double) async throws -> (User, created: Bool) {
        if let owner = try await Identity.owner(
            of: proven.provider, subject: proven.subject, identities: latch.identities, on: db)
        {
            return (owner, false)
        }
        if proven.provider == .apple, proven.emailVerified, let email = proven.email,
            let existing = try await latch.accounts.user(email: email, on: db), existing.emailVerified,
            try await latch.identities.identity(of: existing.requireID(), provider: .apple, on: db) == nil
        {
            do {
                try await latch.identities.create(
                    Identity(
                        userID: existing.requireID(), provider: .apple, subject: proven.subject, email: email,
                        createdAt: now),
                    on: db)
                return (existing, false)
            } catch  where (error as? any DatabaseError)?.isConstraintFailure == true {
                // Linked by a concurrent sign-in: use whatever holds the identity now.
                if let owner = try await Identity.owner(
                    of: proven.provider, subject: proven.subject, identities: latch.identities, on: db)
                {
                    return (owner, false)
                }
                throw error
            }
        }
        // A verified Apple email becomes the new account's email when no account has it.
        var email: String? = nil
        if proven.emailVerified, let candidate = proven.email,
            try await latch.accounts.user(email: candidate, on: db) == nil
        {
            email = candidate
        }
        do {
            return (try await createAccount(for: proven, email: email, now: now), true)
        } catch  where (error as? any DatabaseError)?.isConstraintFailure == true {
            if let owner = try await Identity.owner(
                of: proven.provider, subject: proven.subject, identities: latch.identities, on: db)
            {
                return (owner, false)
            }
            guard email != nil else { throw error }
            // The email was taken meanwhile: the account goes without it.
            return (try await createAccount(for: proven, email: nil, now: now), true)
        }
    }

    private func createAccount(for proven: ProvenIdentity, email: String?, now: Double) async throws -> User {
        try await db.tracedTransaction { database in
            let user = User(
                email: email, emailVerified: email != nil, passwordHash: nil, nickname: proven.nickname, createdAt: now)
            try await latch.accounts.create(user, on: database)
            try await latch.identities.create(
                Identity(
                    userID: user.requireID(), provider: proven.provider, subject: proven.subject, email: proven.email,
                    createdAt: now),
                on: database)
            return user
        }
    }
}
