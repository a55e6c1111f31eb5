import LatchCore

/// A `POST /v1/token` body parsed once, at the edge: each case carries exactly its grant's fields, present
/// (a missing one is 400 `VALIDATION_FAILED` `missing`, naming it), so the grants switch over it and never
/// look for a field again. Checks of a present field's content stay with the grant that knows them.
enum Grant: Sendable {
    /// C4: email and password (the email already validated).
    case password(email: EmailAddress, password: String, device: DeviceInfo?)
    /// C5: a refresh token to rotate.
    case refresh(token: String)
    /// B6: a bound device's signature over login challenge `challengeID` (and App Attest's assertion over
    /// the same message, issue 31 §2).
    case deviceSignature(challengeID: String, signature: String, assertion: String?, device: DeviceInfo?)
    /// C8: the mailed (or TOTP) code finishing unusual sign-in `challengeID` (its device is the challenge's).
    case loginChallenge(challengeID: String, code: String)
    /// C1: Sign in with Apple.
    case apple(AppleProof, device: DeviceInfo?)
    /// C1: a WeChat OAuth code.
    case wechat(code: String, device: DeviceInfo?)
    /// C1: a texted code for a phone number.
    case sms(phone: PhoneNumber, code: String, device: DeviceInfo?)
    /// Issue 13: a passkey assertion answering sign-in challenge `challengeID`.
    case passkey(challengeID: String, credential: AuthenticationResponseJSON, device: DeviceInfo?)
    /// Issue 43 §1: the web polls approval `approvalID` with its poll secret (its device is the approval's).
    case approval(approvalID: String, pollSecret: String)

    /// What the app sent from Sign in with Apple: the identity token, and the optional raw nonce, full name
    /// (first sign-in only) and authorization code.
    struct AppleProof: Sendable {
        let identityToken: String
        var nonce: String? = nil
        var fullName: String? = nil
        var authorizationCode: String? = nil
    }

    /// Parses `body` by its `grant_type`, in the order the fields were always checked.
    init(_ body: TokenRequest) throws {
        switch body.grantType {
        case .password:
            let rawEmail = try body.email.required("email")
            let password = try body.password.required("password")
            let email = try Validate.email(rawEmail)
            try Validate.presentedPassword(password)
            self = .password(email: email, password: password, device: body.device)
        case .refreshToken:
            self = .refresh(token: try body.refreshToken.required("refresh_token"))
        case .deviceSignature:
            self = .deviceSignature(
                challengeID: try body.challengeId.required("challenge_id"),
                signature: try body.signature.required("signature"), assertion: body.appAttestAssertion,
                device: body.device)
        case .loginChallenge:
            let challengeID = try body.challengeId.required("challenge_id")
            let code = try body.code.requiredNonEmpty("code")
            guard code.count <= 64 else { throw LatchError.invalid("code", ["too_long"]) }
            self = .loginChallenge(challengeID: challengeID, code: code)
        case .apple:
            let proof = AppleProof(
                identityToken: try body.identityToken.requiredNonEmpty("identity_token"),
                nonce: body.nonce, fullName: body.fullName, authorizationCode: body.authorizationCode)
            self = .apple(proof, device: body.device)
        case .wechat:
            self = .wechat(code: try body.code.requiredNonEmpty("code"), device: body.device)
        case .smsCode:
            let phone = try Validate.phone(body.phone)
            let code = try body.code.requiredNonEmpty("code")
            try Validate.sixDigitCode(code)
            self = .sms(phone: phone, code: code, device: body.device)
        case .passkey:
            self = .passkey(
                challengeID: try body.challengeId.required("challenge_id"),
                credential: try body.credential.required("credential"), device: body.device)
        case .approval:
            self = .approval(
                approvalID: try body.approvalId.requiredNonEmpty("approval_id"),
                pollSecret: try body.pollSecret.requiredNonEmpty("poll_secret"))
        }
    }
}
