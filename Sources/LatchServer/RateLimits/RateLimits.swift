/// The token buckets in front of the unauthenticated endpoints (`RateLimitedAction`), in memory per
/// latchd instance: N instances behind a load balancer together admit up to N times the global
/// rates, and a client spread over them up to N times its own.
///
/// The standard limits leave an honest client, even many behind one NAT address, far from the
/// edge, while a single address cannot run more than a few bcrypt checks a second; the global ones
/// keep a distributed flood from reaching the database and the mail queue at full speed.
/// `LATCH_RATE_LIMIT_SCALE` multiplies them all (a load test from one address needs a large factor).
public struct RateLimits: Sendable, Equatable {
    public var signIn: RateLimitRule
    public var refresh: RateLimitRule
    public var registration: RateLimitRule
    public var codeCheck: RateLimitRule
    public var codeSend: RateLimitRule
    public var deviceChallenge: RateLimitRule
    /// Failed admin-key checks (`/v1/admin/*`).
    public var adminAuth: RateLimitRule
    /// Phone approvals asked for (`POST /v1/approvals`), per address and per asking device (issue 43 §1).
    public var approval: RateLimitRule
    /// Client buckets kept at most; beyond, idle ones (full again) go first, then the least recently used.
    public var maximumTrackedClients: Int

    public init(
        signIn: RateLimitRule, refresh: RateLimitRule, registration: RateLimitRule, codeCheck: RateLimitRule,
        codeSend: RateLimitRule, deviceChallenge: RateLimitRule,
        adminAuth: RateLimitRule = RateLimits.standardAdminAuth,
        approval: RateLimitRule = RateLimits.standardApproval,
        maximumTrackedClients: Int = 100_000
    ) {
        self.signIn = signIn
        self.refresh = refresh
        self.registration = registration
        self.codeCheck = codeCheck
        self.codeSend = codeSend
        self.deviceChallenge = deviceChallenge
        self.adminAuth = adminAuth
        self.approval = approval
        self.maximumTrackedClients = maximumTrackedClients
    }

    /// | action | per client | all clients |
    /// |---|---|---|
    /// | sign-in | 10/s, burst 20 | 300/s, burst 600 |
    /// | refresh | 50/s, burst 100 | 5,000/s, burst 5,000 |
    /// | registration | 1/s, burst 10 | 50/s, burst 100 |
    /// | code check | 5/s, burst 20 | 200/s, burst 400 |
    /// | code send | 1/s, burst 10 | 50/s, burst 100 |
    /// | device challenge | 10/s, burst 20 | 300/s, burst 600 |
    /// | failed admin key | 1/s, burst 10 | 100/s, burst 200 |
    /// | phone approval asked | 1/s, burst 10 | 50/s, burst 100 |
    public static let standard = RateLimits(
        signIn: RateLimitRule(
            perClient: TokenRate(perSecond: 10, burst: 20), global: TokenRate(perSecond: 300, burst: 600)),
        refresh: RateLimitRule(
            perClient: TokenRate(perSecond: 50, burst: 100), global: TokenRate(perSecond: 5000, burst: 5000)),
        registration: RateLimitRule(
            perClient: TokenRate(perSecond: 1, burst: 10), global: TokenRate(perSecond: 50, burst: 100)),
        codeCheck: RateLimitRule(
            perClient: TokenRate(perSecond: 5, burst: 20), global: TokenRate(perSecond: 200, burst: 400)),
        codeSend: RateLimitRule(
            perClient: TokenRate(perSecond: 1, burst: 10), global: TokenRate(perSecond: 50, burst: 100)),
        deviceChallenge: RateLimitRule(
            perClient: TokenRate(perSecond: 10, burst: 20), global: TokenRate(perSecond: 300, burst: 600)),
        adminAuth: standardAdminAuth)

    /// Failed admin-key checks: 1/s, burst 10 per client (guessing a 32-character key is hopeless
    /// anyway; this keeps the log quiet), 100/s, burst 200 for all clients (generous, so a flood of
    /// wrong keys does not lock the operators out).
    public static let standardAdminAuth = RateLimitRule(
        perClient: TokenRate(perSecond: 1, burst: 10), global: TokenRate(perSecond: 100, burst: 200))

    /// Phone approvals asked for: 1/s, burst 10, per address and per asking device (a page asks again
    /// only when its 120 s code runs out), 50/s, burst 100 for all (a request with a device id takes two
    /// of those): each is a row and a QR code someone may be lured into scanning.
    public static let standardApproval = RateLimitRule(
        perClient: TokenRate(perSecond: 1, burst: 10), global: TokenRate(perSecond: 50, burst: 100))

    /// The rule of `action`.
    public func rule(for action: RateLimitedAction) -> RateLimitRule {
        switch action {
        case .signIn: signIn
        case .refresh: refresh
        case .registration: registration
        case .codeCheck: codeCheck
        case .codeSend: codeSend
        case .deviceChallenge: deviceChallenge
        case .adminAuth: adminAuth
        case .approval: approval
        }
    }

    /// Every rate and burst multiplied by `factor`.
    public func scaled(by factor: Double) -> RateLimits {
        RateLimits(
            signIn: signIn.scaled(by: factor), refresh: refresh.scaled(by: factor),
            registration: registration.scaled(by: factor),
            codeCheck: codeCheck.scaled(by: factor), codeSend: codeSend.scaled(by: factor),
            deviceChallenge: deviceChallenge.scaled(by: factor), adminAuth: adminAuth.scaled(by: factor),
            approval: approval.scaled(by: factor), maximumTrackedClients: maximumTrackedClients)
    }
}
