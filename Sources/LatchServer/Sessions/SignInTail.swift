import FluentKit
import Foundation
import LatchCore

extension LatchServices {
    /// The tail every sign-in shares (each grant of `POST /v1/token`, registration, a first identity
    /// sign-in): starts `user`'s session on `device` and records `event` for it. Whatever the grant
    /// checked before (the secret, the account's state, the device) is the caller's. `boundTo`: the DPoP
    /// key the session is bound to (issue 31), nil for a bearer session. `method`: how the user signed in
    /// (`SignInMethod`), which the outbound `session.established` says (issue 42 §1).
    func startSession(
        for user: User, device: DeviceInfo?, ip: String?, event: SecurityEvent.Kind = .signedIn,
        method: SignInMethod,
        boundTo key: String? = nil, now: Date, on database: any Database
    ) async throws -> (session: Session, tokens: TokenResponse) {
        let (session, tokens) = try await rotation.start(
            user: user, device: device, ip: ip, boundTo: key, now: now, on: database)
        if event == .registered, let userID = user.id, let sessionID = session.id {
            // The session that registered the account (issue 28 §2: its setup on a young account is not held).
            try await accounts.setRegisteringSession(sessionID, of: userID, on: database)
        }
        // The event says whether the session is bound to a DPoP key (issue 31 §1).
        try await events.record(
            event, user: user.id, session: session.id, ip: ip, now: now.timeIntervalSince1970,
            detail: key == nil ? nil : "dpop", facts: ["method": .string(method.rawValue)], on: database)
        return (session, tokens)
    }
}

/// How a session was started, as `session.established` and `account.registered` say it (issue 42 §1).
enum SignInMethod: String, Sendable {
    /// Email and password (also the registration's verified code).
    case password
    /// A bound device key's signature (biometric sign-in).
    case deviceKey = "device_key"
    /// The code of an unusual sign-in (mailed, or a TOTP code) after the password.
    case newDeviceCode = "new_device_code"
    case passkey
    case apple
    case wechat
    /// A phone number proven by a texted code.
    case smsCode = "sms_code"
    /// The phone approved the web's sign-in (issue 43 §1).
    case phoneApproval = "phone_approval"

    /// The method of a sign-in by `provider`.
    init(_ provider: SignInProvider) {
        self =
            switch provider {
            case .email: .password
            case .apple: .apple
            case .wechat: .wechat
            case .phone: .smsCode
            }
    }
}
