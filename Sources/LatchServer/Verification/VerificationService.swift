import FluentKit
import Foundation
import LatchCore

/// Step-up verification (A5, A11, D3) without HTTP (issue 29 §1): offer the methods the caller really
/// has, take attempts by any ONE of them (a device-key signature for biometrics, a passkey assertion, a
/// TOTP or recovery code, or the fund password), and answer success with a single-use proof bound to the
/// action and its parameters. `VerificationRoutes` is its HTTP edge.
struct VerificationService: Sendable {
    let latch: LatchServices
    let metrics: LatchMetrics
    let caller: Caller
    let db: any Database

    /// Starts a verification of `action` with `parameters` (validated by the edge). A running security
    /// hold answers before any method is offered (issue 19 §2). The policy (issue 30) decides how many
    /// different kinds must pass and which may count; its daily limit answers 403 POLICY_LIMIT and a new
    /// value of its locked parameter 403 NEW_VALUE_LOCKED before anything is offered. No method at all,
    /// or fewer kinds than the policy asks, is NO_VERIFICATION_METHOD.
    func start(action: VerificationAction, parameters: [String: String]) async throws -> VerificationStarted {
        try await begin(action: action, parameters: parameters, onDevice: false).started
    }

    /// Starts a verification to be approved on the phone (issue 43 §2, `approve_on: "device"`): as
    /// `start`, and the user's phones with a push token are pushed to, at most `PushApproval.bombingLimit`
    /// times in `PushApproval.bombingWindow` (then 429 RATE_LIMITED). Needs a bound device key.
    func startOnDevice(action: VerificationAction, parameters: [String: String]) async throws -> PushApprovalStarted {
        let begun = try await begin(action: action, parameters: parameters, onDevice: true)
        guard let number = begun.number else { throw LatchError(.noVerificationMethod) }
        return PushApprovalStarted(started: begun.started, number: number, interval: PushApproval.interval)
    }

    private func begin(action: VerificationAction, parameters: [String: String], onDevice: Bool) async throws -> (
        started: VerificationStarted, number: String?
    ) {
        let now = latch.clock.epochSeconds
        try await latch.holds.check(action.rawValue, of: caller.user, now: now, on: db)
        if onDevice {
            let asked = try await PushApprovalStore().askedSince(
                now - PushApproval.bombingWindow, user: caller.user, on: db)
            if asked.count >= PushApproval.bombingLimit, let oldest = asked.first {
                throw LatchError.rateLimited(
                    retryAfter: max(1, Int((oldest + PushApproval.bombingWindow - now).rounded(.up))))
            }
        }
        let policy = latch.config.verificationPolicy
        let rules = policy.policy(of: action)
        let amount = try policy.amount(of: action, parameters: parameters)
        // Issue 41 P2: the tiers judge the day's sum too, so the ledger is read for them as for the limit.
        var spent = PolicyAmount.zero
        if let amount, rules.judgesDailySum(in: amount.unit) {
            spent = try await PolicyLedger().spent(
                user: caller.user, action: action, unit: amount.unit, now: now, on: db)
        }
        if let amount, let limit = rules.dailyLimit[amount.unit], spent + amount.value > limit {
            try await refused(.verificationLimitReached, decision: "limit", detail: "\(action) \(amount.unit)")
            throw PolicyLedger.refusal(unit: amount.unit, limit: limit, remaining: .remaining(of: limit, after: spent))
        }
        let requirement = policy.requirement(for: action, amount: amount, spent: spent)
        var plan = VerificationPlan(
            requiredFactors: requirement.factors, kinds: requirement.kinds, amount: requirement.amount?.value,
            unit: requirement.amount?.unit, target: parameters["address"])
        if let lock = rules.newValueLock {
            guard let value = parameters[lock.parameter], !value.isEmpty else {
                throw LatchError.invalid(lock.parameter, ["missing"])
            }
            plan.target = value
            try await admitValue(value, lock, action: action, now: now)
        }
        let verificationID = UUID()
        let digest = CanonicalParameters.digest(parameters)
        let offers = try await offers(for: verificationID, action: action, digest: digest, plan: plan, passed: [])
        guard let preferred = offers.first?.type, Set(offers.map(\.type)).count >= plan.requiredFactors else {
            throw LatchError(.noVerificationMethod)
        }
        // Approving on the phone is Face ID by its device key: without a key to offer there is no phone.
        if onDevice, !offers.contains(where: { $0.type == .biometric }) {
            throw LatchError(.noVerificationMethod, field: "approve_on")
        }
        try await latch.verifications.create(
            verificationID, user: caller.user, action: action, digest: digest, plan: plan, now: now, on: db)
        var number: String?
        if onDevice {
            number = try await askPhone(verificationID, action: action, parameters: parameters, now: now)
        }
        if plan.requiredFactors > 1 {
            metrics.policyDecisions.increment("two_factors")
            try await latch.events.record(
                .verificationPolicyApplied, user: caller.user, session: caller.session, ip: caller.ip, now: now,
                detail: "\(action) factors=\(plan.requiredFactors)", on: db)
        }
        let started = VerificationStarted(
            verificationId: verificationID.uuidString.lowercased(), methods: offers, preferred: preferred,
            expiresIn: Int(VerificationRecord.lifetime), requiredFactors: plan.requiredFactors,
            reasons: PolicyReasons.of(requirement, language: caller.language))
        return (started, number)
    }

    /// Records verification `id`'s push approval and queues its pushes, in one transaction; answers
    /// the number the initiator shows.
    private func askPhone(_ id: UUID, action: VerificationAction, parameters: [String: String], now: Double)
        async throws
        -> String
    {
        let match = NumberMatch.random()
        let approval = PushApproval(
            id: id, user: caller.user, initiatorSession: caller.session, action: action.rawValue,
            parameters: parameters,
            number: match.number, choices: match.choices, state: .pending, createdAt: now,
            expiresAt: now + VerificationRecord.lifetime, sealedToken: nil)
        let (latch, caller) = (self.latch, self.caller)
        try await db.tracedTransaction { database in
            try await PushApprovalStore().insert(approval, on: database)
            _ = try await latch.pushApproval(
                user: caller.user, verificationID: id, action: action.rawValue, expiresAt: approval.expiresAt,
                language: caller.language, on: database)
        }
        return match.number
    }

    /// Mails the code of verification `id`'s `email_code` factor (issue 30 §2) to the account's address:
    /// 429 `retry_after` within a minute of the last one, or past the address's daily cap of codes.
    func sendEmailCode(_ id: UUID) async throws {
        let now = latch.clock.epochSeconds
        guard let record = try await latch.verifications.live(id, user: caller.user, now: now, on: db) else {
            throw LatchError.notFound
        }
        let passed = VerificationPlan.kindList(record.passed ?? "")
        guard record.kinds.map(VerificationPlan.kindSet)?.contains(.emailCode) ?? false,
            !passed.contains(.emailCode)
        else { throw LatchError.invalid("method", ["not_offered"]) }
        guard let address = try await latch.accounts.user(caller.user, on: db)?.email else {
            throw LatchError.invalid("method", ["not_offered"])
        }
        let send = try await latch.chargeCodeSend(.emailCodeSends(.verification, target: address), on: db)
        let issued: EmailCodeStore.Issued
        switch try await latch.emailCodes.issue(.verification, email: address, now: now, on: db) {
        case .failure(let limited):
            try await latch.refundCodeSend(send, on: db)
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        case .success(let code): issued = code
        }
        try await latch.verifications.bindEmailCode(issued.id, to: id, on: db)
        let mail = MailTemplates.verificationCode(
            issued.code, action: record.action, amount: record.amount, unit: record.unit, target: record.target,
            language: caller.language)
        try await latch.send(mail, to: address, code: issued.code)
    }

    /// The new-value lock (issue 30 §1): a value seen for the first time is recorded, the owner is told
    /// (in the same transaction) and the request answers NEW_VALUE_LOCKED; so does every request during
    /// the lock.
    private func admitValue(
        _ value: String, _ lock: VerificationPolicy.NewValueLock, action: VerificationAction, now: Double
    ) async throws {
        let (latch, caller) = (self.latch, self.caller)
        let state = try await db.tracedTransaction { database in
            let state = try await PolicyValueLocks().state(
                of: value, parameter: lock.parameter, action: action.rawValue, user: caller.user,
                session: caller.session,
                seconds: lock.seconds, now: now, on: database)
            if case .started(let until) = state {
                var change = SecurityChange(.newValueLocked, name: value)
                change.lockedAction = action.rawValue
                change.lockedUntil = until
                try await latch.securityChanges.apply(
                    change,
                    by: SecurityChangeActor(
                        user: caller.user, session: caller.session, ip: caller.ip, language: caller.language),
                    on: database)
            }
            return state
        }
        let until: Double
        switch state {
        case .unlocked: return
        case .started(let end):
            // The declared change recorded `new_value_locked` and mailed the owner.
            metrics.policyDecisions.increment("new_value_locked")
            until = end
        case .running(let end):
            try await refused(.newValueLocked, decision: "new_value_locked", detail: "\(action) still locked")
            until = end
        }
        var error = LatchError(.newValueLocked)
        error.parameter = lock.parameter
        error.lockedUntil = Date(timeIntervalSince1970: until)
        throw error
    }

    /// Records a refusal by the policy: its security event and its metric.
    private func refused(_ event: SecurityEventKind, decision: String, detail: String) async throws {
        metrics.policyDecisions.increment(decision)
        try await latch.events.record(
            event, user: caller.user, session: caller.session, ip: caller.ip, now: latch.clock.epochSeconds,
            detail: detail, on: db)
    }

    /// The offers of the kinds `plan` lets count and that have not passed yet, each only when the caller
    /// has it: biometric > passkey > totp > fund_password > email_code. Challenges of earlier offers of
    /// this verification are retired first, so each offer signs exactly one live challenge. An attempt passes
    /// the account's factors it already read (`known`), so they are read once per request.
    private func offers(
        for id: UUID, action: VerificationAction, digest: String, plan: VerificationPlan,
        passed: [VerificationMethodKind],
        factors known: AccountFactors? = nil
    ) async throws -> [VerificationMethodOffer] {
        func open(_ kind: VerificationMethodKind) -> Bool { plan.allows(kind) && !passed.contains(kind) }
        let now = latch.clock.epochSeconds
        if !passed.isEmpty {
            try await latch.verifications.retireChallenges(of: id, now: now, on: db)
        }
        let read = if let known { known } else { try await latch.accounts.factors(of: caller.user, on: db) }
        guard let factors = read else { throw LatchError.sessionExpired }
        // A held action is answered only by factors older than the hold (issue 28 §2).
        let seasoning = FactorSeasoning.forHeldAction(action.rawValue, of: factors, holds: latch.holds, now: now)
        func has(_ kind: VerificationMethodKind) -> Bool {
            factors.provenance(of: kind) != nil && seasoning?.admits(kind, of: factors) ?? true
        }
        var offers: [VerificationMethodOffer] = []
        if open(.biometric) {
            // An action asking for an attested device (issue 31 §2) offers only keys App Attest vouches for.
            let attestedOnly = latch.config.verificationPolicy.policy(of: action).attestedDevice
            let credentials = try await latch.deviceCredentials.offered(of: caller.user, on: db).filter {
                (!attestedOnly || $0.attested) && seasoning?.mayAnswerHeldAction($0.provenance) ?? true
            }
            if !credentials.isEmpty {
                let challenge = try await latch.challenges.create(verification: id, now: now, on: db)
                offers.append(
                    VerificationMethodOffer(
                        type: .biometric, credentialIds: credentials.map { $0.id.uuidString.lowercased() },
                        challengeId: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge))
            }
        }
        if open(.passkey),
            let passkey = try await passkeys.offer(
                verification: id, action: action.rawValue, digest: digest,
                admitting: { seasoning?.mayAnswerHeldAction($0.provenance) ?? true })
        {
            offers.append(passkey)
        }
        for kind in [VerificationMethodKind.totp, .fundPassword, .emailCode] where open(kind) && has(kind) {
            offers.append(VerificationMethodOffer(type: kind))
        }
        return offers
    }

    /// One attempt at verification `id` by one method, counted in `latch_verifications_total`; the last
    /// factor the policy asks for answers the single-use proof, an earlier one the progress.
    func attempt(_ id: UUID, _ answer: Answer, number: String? = nil) async throws -> AttemptAnswer {
        let method = answer.method.rawValue
        do {
            let passed = try await check(id, answer, number: number)
            metrics.verifications.increment(method, "passed")
            return passed
        } catch {
            metrics.verifications.increment(method, LatchMetrics.outcome(of: error))
            throw error
        }
    }

    private var passkeys: PasskeyVerificationMethod {
        PasskeyVerificationMethod(latch: latch, caller: caller, db: db)
    }

    private var secretGuard: SecretGuard {
        SecretGuard(latch: latch, metrics: metrics, db: db, clientIP: caller.ip, language: caller.language)
    }

    /// Checks one attempt by one method (issue 44 §2): the attempt is used, the phone's number checked
    /// when the phone answers, the step decided (`VerificationStep`), the method verified, and the step
    /// carried out: the pass recorded while another kind is needed, else the proof issued.
    private func check(_ id: UUID, _ answer: Answer, number: String?) async throws -> AttemptAnswer {
        let attempt = try await useAttempt(id)
        // A verification asked of the phone (issue 43 §2): from another session than the one that started
        // it, only the device key answers, and only with the initiator's number.
        let push = try await PushApprovalStore().find(id, user: caller.user, on: db)
        let fromPhone = push.map { $0.initiatorSession != caller.session } ?? false
        if let push, fromPhone {
            try await checkPhone(push, answer: answer, number: number)
        }
        guard let factors = try await latch.accounts.factors(of: caller.user, on: db) else {
            throw LatchError.sessionExpired
        }
        // A held action is answered only by factors older than the hold (issue 28 §2), also when asked
        // for by a factor that was not offered.
        let seasoning = FactorSeasoning.forHeldAction(
            attempt.action.rawValue, of: factors, holds: latch.holds, now: latch.clock.epochSeconds)
        let admitted = seasoning?.admits(answer.method, of: factors) ?? true
        // Only a kind the policy lets count, and never the same kind twice (issue 30 §2).
        switch VerificationStep.of(answer.method, plan: attempt.plan, passed: attempt.passed, admitted: admitted) {
        case .notOffered:
            throw LatchError.invalid("method", ["not_offered"])
        case .alreadyPassed:
            throw LatchError.invalid("method", ["already_passed"])
        case .needsAnother(let passed, let remaining):
            try await verify(answer, of: id, attempt: attempt, seasoning: seasoning)
            return try await recordPass(
                answer.method, passed: passed, remaining: remaining, of: id, attempt: attempt, factors: factors)
        case .complete(let passed):
            try await verify(answer, of: id, attempt: attempt, seasoning: seasoning)
            return try await complete(id, passed: passed, attempt: attempt, push: push, fromPhone: fromPhone)
        }
    }

    /// One of the 5 attempts is used before anything is checked (atomic, across instances).
    private func useAttempt(_ id: UUID) async throws -> VerificationStore.Attempt {
        switch try await latch.verifications.useAttempt(id, user: caller.user, now: latch.clock.epochSeconds, on: db) {
        case .success(let used): return used
        case .failure(.unknown): throw LatchError.notFound
        case .failure(.completed): throw LatchError(.conflict)
        case .failure(.dead): throw LatchError.wrongCode(attemptsRemaining: 0)
        }
    }

    /// The phone answers a pending approval with its device key and the number the initiator shows; a
    /// wrong number ends the approval (`wrongNumber`).
    private func checkPhone(_ push: PushApproval, answer: Answer, number: String?) async throws {
        let now = latch.clock.epochSeconds
        guard push.state == .pending, push.expiresAt > now else { throw LatchError.wrongCode(attemptsRemaining: 0) }
        guard answer.method == .biometric else { throw LatchError.invalid("method", ["not_offered"]) }
        guard let number else { throw LatchError.invalid("number", ["missing"]) }
        guard SecretBox.constantTimeEquals(number, push.number) else {
            try await wrongNumber(push, now: now)
            throw LatchError(.wrongCode, field: "number", attemptsRemaining: 0)
        }
    }

    /// Verifies the method of `answer`, one function per method; a failure answers WRONG_CODE with the
    /// attempts left (for a secret, no more than its ladder allows before it locks) or METHOD_LOCKED.
    private func verify(
        _ answer: Answer, of id: UUID, attempt: VerificationStore.Attempt, seasoning: FactorSeasoning?
    ) async throws {
        let result: GuardedCheck
        switch answer {
        case .biometric(let credentialID, let signature, let assertion):
            result = try await verifySignature(
                signature, assertion: assertion, by: credentialID, verification: id, action: attempt.action,
                digest: attempt.digest, seasoning: seasoning)
        case .passkey(let credential):
            result = try await passkeys.check(
                credential, verification: id, action: attempt.action.rawValue, digest: attempt.digest,
                admitting: { seasoning?.mayAnswerHeldAction($0.provenance) ?? true })
        case .totp(let code):
            result = try await verifyTOTP(code)
        case .fundPassword(let candidate):
            result = try await verifyFundPassword(candidate)
        case .emailCode(let code):
            result = try await verifyEmailCode(code, sent: attempt.emailCodeID)
        }
        switch result {
        case .matched:
            return
        case .failed(let beforeLock):
            switch answer {
            case .biometric, .passkey:
                // Nothing to guess (no guess budget): the verification's attempts are the limit.
                try await latch.events.record(
                    .verificationFailed, user: caller.user, session: caller.session, ip: caller.ip,
                    now: latch.clock.epochSeconds, on: db)
                throw LatchError.wrongCode(attemptsRemaining: attempt.attemptsRemaining)
            case .totp, .fundPassword, .emailCode:
                throw LatchError.wrongCode(attemptsRemaining: min(attempt.attemptsRemaining, beforeLock))
            }
        case .locked(let until):
            throw LatchError.methodLocked(until: until, language: caller.language)
        }
    }

    /// The account, for the checks of a secret (its ladder and who is told).
    private func owner() async throws -> User {
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        return user
    }

    /// A TOTP or recovery code, under the TOTP ladder; a recovery code used is on the owner's log.
    private func verifyTOTP(_ code: String) async throws -> GuardedCheck {
        let (latch, caller, db) = (self.latch, self.caller, self.db)
        let now = latch.clock.now
        var used: TOTPService.UsedCode?
        let result = try await secretGuard.checkTOTP(
            of: caller.user, owner: try await owner(), session: caller.session, failureEvent: .verificationFailed
        ) {
            used = try await latch.totp.check(code, user: caller.user, now: now, on: db)
            return used != nil
        }
        if used == .recoveryCode {
            try await latch.events.record(
                .recoveryCodeUsed, user: caller.user, session: caller.session, ip: caller.ip,
                now: now.timeIntervalSince1970, on: db)
        }
        return result
    }

    /// The fund password, under its ladder.
    private func verifyFundPassword(_ candidate: String) async throws -> GuardedCheck {
        guard let fund = try await FundPasswordStore().find(of: caller.user, on: db) else {
            throw LatchError.invalid("method", ["not_set"])
        }
        // The bcrypt place first: a full queue answers 429 without counting a wrong fund password.
        return try await secretGuard.checkFundPassword(
            candidate, against: fund.passwordHash, of: caller.user, owner: try await owner(), session: caller.session)
    }

    /// The code mailed for this verification (`sent`, its row); wrong codes count against the address's
    /// budget of codes (AUTH_003 / AUTH_002), which answers by throwing.
    private func verifyEmailCode(_ code: String, sent: UUID?) async throws -> GuardedCheck {
        guard let sent else { throw LatchError.invalid("code", ["not_sent"]) }
        _ = try await secretGuard.checkEmailCode(
            code, purpose: .verification, id: sent, owner: try await owner(), tell: .codeAddress)
        return .matched
    }

    /// Records one pass of several (a racing pass answers 409 and counts nothing) and answers the
    /// progress with the offers of the kinds still open.
    private func recordPass(
        _ method: VerificationMethodKind, passed: [VerificationMethodKind], remaining: Int, of id: UUID,
        attempt: VerificationStore.Attempt, factors: AccountFactors
    ) async throws -> AttemptAnswer {
        guard try await latch.verifications.recordPass(method, after: attempt.passed, of: id, on: db) else {
            throw LatchError(.conflict)
        }
        try await latch.events.record(
            .verificationPassed, user: caller.user, session: caller.session, ip: caller.ip,
            now: latch.clock.epochSeconds,
            detail: "factor \(passed.count) of \(attempt.plan.requiredFactors): \(method.rawValue)", on: db)
        let offers = try await offers(
            for: id, action: attempt.action, digest: attempt.digest, plan: attempt.plan, passed: passed,
            factors: factors)
        return .result(
            .needsAnotherFactor(VerificationProgress(remainingFactors: remaining, passed: passed, methods: offers)))
    }

    /// Completes the verification once (a second success, a race, gets 409 and no second proof) and
    /// issues its proof; the phone's factor completed it: the token is the initiator's, kept sealed until
    /// its poll.
    private func complete(
        _ id: UUID, passed: [VerificationMethodKind], attempt: VerificationStore.Attempt, push: PushApproval?,
        fromPhone: Bool
    ) async throws -> AttemptAnswer {
        let seconds = latch.clock.epochSeconds
        guard try await latch.verifications.complete(id, now: seconds, on: db) else {
            throw LatchError(.conflict)
        }
        let token = try await latch.verificationTokens.issue(
            user: caller.user, session: fromPhone ? push?.initiatorSession : caller.session, action: attempt.action,
            digest: attempt.digest, methods: passed, plan: attempt.plan, now: seconds, on: db)
        try await latch.events.record(
            .verificationPassed, user: caller.user, session: caller.session, ip: caller.ip, now: seconds, on: db)
        if let push {
            let sealed = fromPhone ? try latch.secrets.seal(Data(token.utf8)) : nil
            let decided = try await PushApprovalStore().decide(
                push.id, fromPhone ? .approved : .ended, sealedToken: sealed, now: seconds, on: db)
            if fromPhone {
                guard decided else { throw LatchError(.conflict) }
                return .approved
            }
        }
        return .result(
            .passed(VerificationPassed(verificationToken: token, expiresIn: Int(VerificationToken.lifetime))))
    }

    /// The phone picked a number the initiator did not show: the approval and its verification end, the
    /// owner's log records it and the owner is mailed with a freeze link, in one transaction.
    private func wrongNumber(_ push: PushApproval, now: Double) async throws {
        let (latch, caller) = (self.latch, self.caller)
        let email = try await latch.accounts.user(caller.user, on: db)?.email
        try await db.tracedTransaction { database in
            _ = try await PushApprovalStore().decide(push.id, .ended, now: now, on: database)
            try await latch.verifications.exhaust(push.id, on: database)
            try await latch.events.record(
                .approvalWrongNumber, user: caller.user, session: caller.session, ip: caller.ip, now: now,
                detail: "verification \(push.id.uuidString.lowercased()) \(push.action)", on: database)
            if let email {
                let mail = MailTemplates.pushApprovalWrongNumber(action: push.action, language: caller.language)
                try await latch.mailNotice(mail, to: email, user: caller.user, now: now, on: database)
            }
        }
    }

    /// A biometric success is a signature by a bound device key over this verification's challenge
    /// and the action's digest; the server never trusts a bare "biometrics passed" (A11). Under App Attest
    /// the assertion over the same message is checked once the signature verified (issue 31 §2).
    private func verifySignature(
        _ signature: String, assertion: String?, by credentialID: UUID, verification: UUID, action: VerificationAction,
        digest: String, seasoning: FactorSeasoning?
    ) async throws -> GuardedCheck {
        guard let credential = try await latch.deviceCredentials.find(credentialID, of: caller.user, on: db) else {
            throw LatchError.invalid("credential_id", ["unknown"])
        }
        guard seasoning?.mayAnswerHeldAction(credential.provenance) ?? true else {
            throw LatchError.invalid("method", ["not_offered"])
        }
        let now = latch.clock.epochSeconds
        guard let challenge = try await latch.challenges.consume(verification: verification, now: now, on: db) else {
            return .failed(attemptsBeforeLock: 0) // no live challenge: start a new verification to sign again
        }
        let message = try SignedMessage(
            purpose: .verify(action: action.rawValue, parametersDigest: digest),
            challengeID: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge)
        guard
            DeviceSignature.verify(
                publicKeyX963Base64URL: credential.publicKey, signatureDERBase64URL: signature, message: message)
        else {
            return .failed(attemptsBeforeLock: 0)
        }
        // The policy may let only an attested device's answer count for this action (issue 31 §2).
        try await AppAttestService(latch: latch, db: db).checkAssertion(
            assertion, of: credential, over: message,
            required: latch.config.verificationPolicy.policy(of: action).attestedDevice)
        try await latch.deviceCredentials.markUsed(credential, now: now, on: db)
        return .matched
    }
}
