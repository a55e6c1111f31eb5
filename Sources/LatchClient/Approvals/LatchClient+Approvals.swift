import Foundation
import LatchCore

// Issue 43: the phone approves. The phone's calls (view, decide, list, deny, push token) and the waiting
// side's (start a sign-in approval or a phone-approved verification, and poll it as RFC 8628 says).

extension LatchClient {
    /// The verification action the phone passes before approving a sign-in, bound to `{"approval_id"}`.
    public static let approveSignInAction = VerificationAction.approveSignIn.rawValue

    /// The context of the verification that approves sign-in approval `approvalID` (Face ID by the device key).
    public static func approveSignInContext(approvalID: String, localizedReason: String? = nil) -> VerificationContext {
        VerificationContext(
            action: approveSignInAction, parameters: ["approval_id": approvalID], localizedReason: localizedReason)
    }

    // MARK: - The phone (§1)

    /// What asks to be signed in by the scanned code (`GET /v1/approvals/{id}`): the client, its platform and
    /// address, when, whether it is on this phone's network, and three numbers. A wrong or stale link is
    /// `.server` NOT_FOUND (a scan secret wrong three times ends the approval).
    public func signInApproval(_ link: ApprovalLink) async throws -> SignInApprovalDetails {
        try await perform(.signInApproval(link))
    }

    /// Approves the sign-in with the number the user picked and a proof of ``approveSignInContext(approvalID:localizedReason:)``.
    /// A wrong number ends the approval for good (`.server` AUTH_003, the owner is told).
    @discardableResult
    public func approveSignIn(_ link: ApprovalLink, number: String, verificationToken: String) async throws
        -> SignInApprovalDecided
    {
        try await perform(
            .decideSignInApproval(
                id: link.approvalID,
                .approve(number: number, verificationToken: verificationToken, scanSecret: link.scanSecret)))
    }

    /// Denies the sign-in; the web's poll gets `access_denied`.
    @discardableResult
    public func denySignIn(_ link: ApprovalLink) async throws -> SignInApprovalDecided {
        try await perform(.decideSignInApproval(id: link.approvalID, .deny(scanSecret: link.scanSecret)))
    }

    // MARK: - The phone (§2)

    /// The user's verifications waiting for a phone (`GET /v1/approvals`).
    public func pendingPhoneApprovals() async throws -> [PendingPhoneApproval] {
        try await perform(APICall<PendingPhoneApprovals>.pendingPhoneApprovals).approvals
    }

    /// A verification as this session sees it (`GET /v1/verifications/{id}`): on the phone, with its three
    /// numbers and the live offers; for the initiator, its state and (once approved) the token.
    public func phoneVerification(id: String) async throws -> PhoneVerificationDetails {
        try await perform(.phoneVerification(id: id))
    }

    /// Denies a verification waiting for the phone (`POST /v1/verifications/{id}/deny`); the owner is mailed.
    @discardableResult
    public func denyPhoneVerification(id: String) async throws -> PhoneVerificationDenied {
        try await perform(.denyPhoneVerification(id: id))
    }

    /// Registers this phone's APNs device token for the device key `credentialID`
    /// (`PUT /v1/device-credentials/{id}/push-token`), so that approval pushes reach it.
    public func registerPushToken(
        _ deviceToken: Data, credentialID: String, environment: PushTokenRegistration.Environment
    ) async throws {
        try await perform(
            APICall<Void>.registerPushToken(
                credentialID: credentialID,
                PushTokenRegistration(token: PushDeviceToken.hex(deviceToken), environment: environment)))
    }

    /// Stops approval pushes to this phone (`DELETE /v1/device-credentials/{id}/push-token`).
    public func removePushToken(credentialID: String) async throws {
        try await perform(APICall<Void>.removePushToken(credentialID: credentialID))
    }

    /// The phone's attempt on a verification it approves, with the picked number.
    func submitPhoneAttempt(_ attempt: VerificationAttempt, number: String, verificationID: String) async throws
        -> PhoneAttemptAnswer
    {
        try await perform(.phoneAttempt(attempt, number: number, verificationID: verificationID))
    }

    // MARK: - The waiting side

    /// Asks for a sign-in approval (`POST /v1/approvals`, no sign-in): show `qrUrl` as a QR code and
    /// `number` beside it, then ``waitForSignInApproval(_:sleep:)``. With a DPoP key (the default) the
    /// request carries a proof, and the session the phone approves is bound to this client's key.
    public func startSignInApproval(client: SignInApprovalRequest.Client) async throws -> SignInApprovalStarted {
        let device = try await deviceInfo()
        return try await api.perform(
            .startSignInApproval(
                SignInApprovalRequest(client: client, device: .init(id: device.id, name: device.name))))
    }

    /// Polls `POST /v1/token` grant `approval` as RFC 8628 §3.5 says (`authorization_pending`: again after
    /// `interval`; `slow_down`: the interval grows by 5 s; `access_denied`, `expired_token`: stop, thrown as
    /// ``ApprovalPollEnd``) until the phone approves; then the new session is this client's.
    ///
    /// - Parameter sleep: waits that many seconds (a test passes one that returns at once).
    @discardableResult
    public func waitForSignInApproval(
        _ started: SignInApprovalStarted,
        sleep: @Sendable (Int) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) async throws -> UserInfo {
        var schedule = ApprovalPollSchedule(interval: started.interval, expiresIn: started.expiresIn, now: clock())
        let grant = TokenRequest(grantType: .approval, approvalId: started.approvalId, pollSecret: started.pollSecret)
        while true {
            let answer: ApprovalPollSchedule.Answer
            do {
                return try await signIn(with: try await api.token(grant))
            } catch {
                guard let read = ApprovalPollSchedule.answer(to: error) else { throw error }
                answer = read
            }
            switch schedule.answered(answer, now: clock()) {
            case .pollAgain(let seconds): try await sleep(seconds)
            case .stop(let end): throw end
            }
        }
    }

    /// Starts a verification that the user's phone approves (`approve_on: "device"`): latchd pushes to the
    /// phones with a push token. Show `number`, then ``waitForPhoneApproval(_:sleep:)`` for the token.
    public func startPhoneApprovedVerification(_ context: VerificationContext) async throws -> PhoneApprovalStarted {
        try await perform(
            .startPhoneApprovedVerification(
                PhoneApprovedVerificationRequest(action: context.action, parameters: context.parameters)))
    }

    /// Polls the verification (`GET /v1/verifications/{id}`) every `interval` seconds until the phone
    /// approved it and answers the token (only this, the initiating session, gets it, once); a denial, an
    /// end (wrong number) or the expiry throws ``ApprovalPollEnd``. A 429 `slow_down`-like answer
    /// (RATE_LIMITED) waits longer, as RFC 8628 says.
    public func waitForPhoneApproval(
        _ started: PhoneApprovalStarted,
        sleep: @Sendable (Int) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) async throws -> VerificationPassed {
        var schedule = ApprovalPollSchedule(
            interval: started.interval, expiresIn: started.verification.expiresIn, now: clock())
        let id = started.verification.verificationId
        while true {
            let answer: ApprovalPollSchedule.Answer
            do {
                let details = try await phoneVerification(id: id)
                if let read = ApprovalPollSchedule.answer(to: details) {
                    answer = read
                } else {
                    let left = max(0, Int(details.expiresAt.timeIntervalSince(clock())))
                    return VerificationPassed(verificationToken: details.verificationToken ?? "", expiresIn: left)
                }
            } catch let error as LatchClientError where error.code == .rateLimited {
                answer = .slowDown
            } catch let error as LatchClientError where error.code == .notFound {
                answer = .expired
            }
            switch schedule.answered(answer, now: clock()) {
            case .pollAgain(let seconds): try await sleep(seconds)
            case .stop(let end): throw end
            }
        }
    }
}

extension LatchClient {
    /// Registers `deviceToken` for this phone's bound device key (the one biometric sign-in enabled here);
    /// `false` when no key is bound on this device (turn on Face ID first: pushes go to device keys).
    @discardableResult
    public func registerPushTokenForThisDevice(
        _ deviceToken: Data, environment: PushTokenRegistration.Environment
    ) async throws -> Bool {
        guard let binding = await BiometricEnrollmentStore(vault: vault).binding() else { return false }
        try await registerPushToken(deviceToken, credentialID: binding.credentialID, environment: environment)
        return true
    }
}
