import FluentKit
import Foundation
import LatchCore

/// Everything the routes use, made once by `LatchApplication.make` and read as `app.latch`; each route
/// collection holds it from the router's building. A class: every request reads it several times, and a copy
/// of a struct of two dozen references cost two dozen retains and releases each time (issue 21).
public final class LatchServices: Sendable {
    public let config: LatchConfig
    public let clock: LatchClock
    let secrets: SecretBox
    let passwords: PasswordHasher
    let passwordPolicy: PasswordPolicy
    let throttle: LoginThrottleStore
    /// The lock of step-up methods (fund password, TOTP): 5 failures → 1 hour.
    let methodThrottle: LoginThrottleStore
    /// Failure budgets of every guessable secret, and caps on codes sent (issue 10).
    let budgets: GuessBudgetStore
    let emailCodes: EmailCodeStore
    let accessTokens: AccessTokens
    let rotation: RefreshTokenRotation
    let sessionStatus: SessionStatusCache
    let revocation: SessionRevocation
    /// The owner of the `users` table and of the `/v1/me` profiles cached from it (issue 44 §1).
    let accounts: AccountStore
    let events: SecurityEventLog
    let totp: TOTPService
    let challenges: ChallengeStore
    let loginChallenges = LoginChallengeStore()
    let verifications = VerificationStore()
    let identities: IdentityStore
    let verificationTokens: VerificationTokens
    /// DPoP (RFC 9449, issue 31): the grants' binding and the resource requests' proofs.
    let dpop: DPoPGuard
    /// App Attest (issue 31 §2): Apple's checks, for the configured roots, app ids and environment
    /// (nil only if the roots cannot be read, which configuration refuses first).
    let appAttestVerifier: AppAttestVerifier?
    let appAttestStore = AppAttestStore()
    public let delivery: any MessageDelivery
    /// Approval pushes (issue 43 §2) through the durable queue; nil when APNs is not configured.
    let pushes: APNsPushQueue?
    /// The token buckets of `config.rateLimits` (in this instance's memory).
    let rateLimiter: RateLimiter
    /// The outbound event streams (issue 42).
    let eventStreams: EventStreamServices
    /// The development outbox, when delivery goes there.
    public let outbox: DevelopmentOutbox?
    /// The application's database, for work outside a request (`send` reads the anti-phishing code there
    /// when not given a database).
    let database: @Sendable () -> any Database

    init(
        config: LatchConfig, clock: LatchClock, secrets: SecretBox, passwords: PasswordHasher,
        passwordPolicy: PasswordPolicy, throttle: LoginThrottleStore, methodThrottle: LoginThrottleStore,
        budgets: GuessBudgetStore, emailCodes: EmailCodeStore, accessTokens: AccessTokens,
        rotation: RefreshTokenRotation, sessionStatus: SessionStatusCache, revocation: SessionRevocation,
        accounts: AccountStore, events: SecurityEventLog, totp: TOTPService, challenges: ChallengeStore,
        verificationTokens: VerificationTokens, delivery: any MessageDelivery, rateLimiter: RateLimiter,
        eventStreams: EventStreamServices, outbox: DevelopmentOutbox?, database: @escaping @Sendable () -> any Database,
        pushes: APNsPushQueue? = nil
    ) {
        self.config = config
        self.clock = clock
        self.secrets = secrets
        self.passwords = passwords
        self.passwordPolicy = passwordPolicy
        self.throttle = throttle
        self.methodThrottle = methodThrottle
        self.budgets = budgets
        self.emailCodes = emailCodes
        self.accessTokens = accessTokens
        self.rotation = rotation
        self.sessionStatus = sessionStatus
        self.revocation = revocation
        self.accounts = accounts
        self.identities = IdentityStore(accounts: accounts)
        self.events = events
        self.totp = totp
        self.challenges = challenges
        self.verificationTokens = verificationTokens
        self.dpop = DPoPGuard(config)
        self.appAttestVerifier = try? AppAttestVerifier(config.appAttest)
        self.delivery = delivery
        self.pushes = pushes
        self.rateLimiter = rateLimiter
        self.eventStreams = eventStreams
        self.outbox = outbox
        self.database = database
    }

    /// Queues `mail` to `address`; throws 503 (`delivery_queue_full`, `retry_after`) when the queue is
    /// full, so a message is never dropped without the request saying so. Pass a transaction's
    /// `database` to queue the mail with the change that causes it (sent only if it commits).
    ///
    /// Every mail passes here: when `address` belongs to an account that chose an anti-phishing code
    /// (issue 19 §4), the mail shows it; a mail to an address without an account never shows one.
    /// `lane` is the queue lane (issue 20 §2): codes (the default) or notices.
    func send(
        _ mail: MailTemplates.Mail, to address: String, code: String? = nil, lane: DeliveryLane = .code,
        on database: (any Database)? = nil
    ) async throws {
        var mail = mail
        mail.antiPhishingCode = try await accounts.antiPhishingCode(ofAddress: address, on: database ?? self.database())
        let message = OutgoingMessage(
            to: address, channel: OutgoingMessage.emailChannel, subject: mail.subject, body: mail.body, code: code,
            createdAt: clock.now, html: mail.html, lane: lane)
        if let database {
            try await delivery.deliver(message, on: database)
        } else {
            try await delivery.deliver(message)
        }
    }

    /// `password/forgot`'s hand-over of `mail` to `address` (issue 20 §3, issue 28 §2): queued when the
    /// address has an account (`forAccount`), otherwise rehearsed — the same reads and writes, one
    /// committed transaction each (`MessageDelivery.rehearse`, `deliverAsRehearsed`), the same refusal
    /// when the queue is full — so neither the answer nor its timing tells. The anti-phishing code is
    /// read first, on its own: a read at the start of the transaction would need SQLite's lock upgrade,
    /// which a concurrent writer (the delivery worker) makes fail.
    func handOverCodeMail(_ mail: MailTemplates.Mail, to address: String, code: String, forAccount: Bool)
        async throws
    {
        var mail = mail
        let database = self.database()
        mail.antiPhishingCode = try await accounts.antiPhishingCode(ofAddress: address, on: database)
        let message = OutgoingMessage(
            to: address, channel: OutgoingMessage.emailChannel, subject: mail.subject, body: mail.body, code: code,
            createdAt: clock.now, html: mail.html)
        if forAccount {
            try await delivery.deliverAsRehearsed(message, on: database)
        } else {
            try await delivery.rehearse(message, on: database)
        }
    }

    /// How many password checks ran (for tests of the lockout gate).
    public var passwordChecksPerformed: Int { passwords.checksPerformed }
}
