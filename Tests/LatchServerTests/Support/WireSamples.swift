import Foundation
import LatchCore

/// One realistic value of every LatchCore wire type (several where a type has variants: each grant,
/// each verification method, each identity provider), for `WireSchemaConformanceTests`.
enum WireSamples {
    typealias Sample = WireSchemaConformanceTests.Sample

    static let userID = "5b0f6d1e-2c4a-4e8b-9f3d-7a1c2e4b6d80"
    static let sessionID = "0e6b1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4"
    static let credentialID = "8c1d2e3f-4a5b-4c6d-9e7f-8091a2b3c4d5"
    static let challengeID = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
    static let createdAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let later = Date(timeIntervalSince1970: 1_800_003_600)
    /// 32 random bytes, base64url without padding.
    static let randomBase64URL = "q2V9b1lq0r3cYgk2m0vTq8u4xw7Zp5sN1eH6aJfK3dE"
    /// An uncompressed P-256 point (X9.63, 65 bytes), base64url without padding: 87 characters.
    static let publicKey = "BA" + String(repeating: "x", count: 85)
    static let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6InEyVjliIn0.eyJzdWIiOiI1YjBmIn0.c2lnbmF0dXJl"

    static let user = UserInfo(
        id: userID, email: "alice@example.com", emailVerified: true, nickname: "Alice", createdAt: createdAt,
        identities: [
            IdentityInfo(provider: "email", identifier: "alice@example.com", linkedAt: createdAt),
            IdentityInfo(provider: "wechat", identifier: nil, linkedAt: later)
        ])
    static let tokenResponse = TokenResponse(
        accessToken: jwt, expiresIn: 7200, refreshToken: randomBase64URL, refreshExpiresIn: 2_592_000,
        sessionId: sessionID,
        user: UserInfo(id: userID, email: "alice@example.com", emailVerified: true, nickname: nil, createdAt: createdAt)
    )
    static let device = DeviceInfo(
        id: "A1B2C3D4-iphone", name: "Alice's iPhone", model: "iPhone16,1", platform: "iOS 18.1")
    static let descriptor = PublicKeyCredentialDescriptorJSON(id: randomBase64URL, transports: ["internal", "hybrid"])
    static let requestOptions = PublicKeyCredentialRequestOptionsJSON(
        challenge: randomBase64URL, timeout: 300_000, rpId: "latch.example.com", allowCredentials: [descriptor],
        userVerification: "required")
    static let creationOptions = PublicKeyCredentialCreationOptionsJSON(
        rp: .init(id: "latch.example.com", name: "Latch"),
        user: .init(id: "W7Dh1e0sTMqUbO9ZHcJ0gA", name: "alice@example.com", displayName: "Alice"),
        challenge: randomBase64URL, pubKeyCredParams: [.init(alg: .es256), .init(alg: .rs256)], timeout: 300_000,
        excludeCredentials: [descriptor],
        authenticatorSelection: .init(
            residentKey: "preferred", requireResidentKey: false, userVerification: "required"),
        attestation: "none")
    static let registrationResponse = RegistrationResponseJSON(
        id: randomBase64URL, rawId: randomBase64URL,
        response: .init(
            clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", attestationObject: "o2NmbXRkbm9uZQ",
            transports: ["internal"]),
        authenticatorAttachment: "platform")
    static let authenticationResponse = AuthenticationResponseJSON(
        id: randomBase64URL, rawId: randomBase64URL,
        response: .init(
            clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
            authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
            signature: "MEUCIQDx", userHandle: "W7Dh1e0sTMqUbO9ZHcJ0gA"),
        authenticatorAttachment: "platform")
    static let session = SessionInfo(
        id: sessionID, deviceName: "Alice's iPhone", deviceModel: "iPhone16,1", platform: "iOS 18.1", ip: "203.0.113.7",
        createdAt: createdAt, lastActiveAt: later, current: true)
    static let deviceCredential = DeviceCredentialInfo(
        id: credentialID, deviceName: "Alice's iPhone", biometry: "face_id", createdAt: createdAt, lastUsedAt: later,
        protection: "secure_enclave", attested: true, app: AppIdentity(bundleId: "com.example.wallet", version: "2.4.1")
    )
    static let passkey = PasskeyInfo(
        id: credentialID, name: "iCloud Keychain", createdAt: createdAt, lastUsedAt: later, backedUp: true,
        backupEligible: true,
        transports: ["internal", "hybrid"], attestation: "none")
    static let securityEvent = SecurityEventInfo(
        id: challengeID, type: "signed_in", sessionId: sessionID, ip: "203.0.113.7", createdAt: createdAt)

    static let all: [Sample] = [
        Sample("Error", "wrong code", APIErrorBody(error: "AUTH_003", message: "Wrong code.", attemptsRemaining: 2)),
        Sample("Error", "locked", APIErrorBody(error: "AUTH_002", message: "Locked.", lockedUntil: later)),
        Sample(
            "Error", "validation",
            APIErrorBody(
                error: "VALIDATION_FAILED", message: "Check the password.", field: "password", reasons: ["too_short"])),
        Sample(
            "Error", "rate limited", APIErrorBody(error: "RATE_LIMITED", message: "Too many requests.", retryAfter: 30)),
        Sample(
            "Error", "unusual sign-in",
            APIErrorBody(
                error: "VERIFICATION_REQUIRED", message: "Enter the code.", challengeId: challengeID, method: "email")),
        Sample("AccountDeleted", AccountDeleted(appleRevocation: .notLinked)),
        Sample(
            "AccountExport",
            AccountExport(
                exportedAt: later, user: user, securitySettings: SecuritySettings(verifyUnusualSignIns: true),
                sessions: [session],
                deviceCredentials: [deviceCredential], passkeys: [passkey],
                knownDevices: [.init(deviceId: "A1B2C3D4-iphone", firstSeenAt: createdAt)],
                factors: .init(totp: true, fundPassword: true, biometric: true, recoveryCodesRemaining: 9),
                securityEvents: [securityEvent])),
        Sample("DeleteAccountRequest", DeleteAccountRequest(verificationToken: jwt)),
        Sample(
            "RegistrationRequest",
            RegistrationRequest(
                email: "alice@example.com", password: "Correct-Horse-9", termsAccepted: true, nickname: "Alice")),
        Sample("RegistrationAccepted", RegistrationAccepted(registrationId: challengeID, expiresIn: 600)),
        Sample("VerifyCodeRequest", VerifyCodeRequest(code: "482915", device: device)),
        Sample("UpdateProfileRequest", UpdateProfileRequest(nickname: "Alice L.")),
        Sample("ForgotPasswordRequest", ForgotPasswordRequest(email: "alice@example.com")),
        Sample(
            "ResetPasswordRequest",
            ResetPasswordRequest(email: "alice@example.com", code: "482915", newPassword: "Battery-Staple-7")),
        Sample(
            "ChangePasswordRequest",
            ChangePasswordRequest(currentPassword: "Correct-Horse-9", newPassword: "Battery-Staple-7")),
        Sample(
            "DeviceCredentialRequest",
            DeviceCredentialRequest(
                publicKey: publicKey, deviceName: "Alice's iPhone", biometry: .faceID, verificationToken: jwt)),
        Sample("DeviceCredentialCreated", DeviceCredentialCreated(credentialId: credentialID)),
        Sample("DeviceCredential", deviceCredential),
        Sample(
            "SignatureChallenge",
            SignatureChallengeInfo(challengeId: challengeID, challenge: randomBase64URL, expiresIn: 120)),
        Sample("UnbindDeviceCredentialRequest", UnbindDeviceCredentialRequest(verificationToken: jwt)),
        Sample("Device", device),
        Sample("Identity", IdentityInfo(provider: "phone", identifier: "+8613800138000", linkedAt: createdAt)),
        Sample(
            "LinkIdentityRequest", "email, first call",
            LinkIdentityRequest(provider: "email", email: "alice@example.com", password: "Correct-Horse-9")),
        Sample(
            "LinkIdentityRequest", "email, code",
            LinkIdentityRequest(provider: "email", code: "482915", email: "alice@example.com")),
        Sample(
            "LinkIdentityRequest", "apple",
            LinkIdentityRequest(
                provider: "apple", identityToken: jwt, nonce: "n-0S6_WzA2Mj", authorizationCode: "c1f2.0.abc")),
        Sample("LinkIdentityRequest", "wechat", LinkIdentityRequest(provider: "wechat", code: "081Kq4Ga1Yx8xL0")),
        Sample(
            "LinkIdentityRequest", "phone",
            LinkIdentityRequest(provider: "phone", code: "482915", phone: "+8613800138000")),
        Sample("SMSCodeRequest", SMSCodeRequest(phone: "+8613800138000")),
        Sample("SMSCodeAccepted", SMSCodeAccepted(expiresIn: 600, resendAfter: 60)),
        Sample("UnlinkIdentityRequest", UnlinkIdentityRequest(verificationToken: jwt)),
        Sample("EmailLinkCodeSent", EmailLinkCodeSent(expiresIn: 600)),
        Sample("PasskeyRegistrationOptionsRequest", PasskeyRegistrationOptionsRequest(verificationToken: jwt)),
        Sample(
            "PasskeyRegistrationOptions", PasskeyRegistrationOptions(challengeId: challengeID, options: creationOptions)
        ),
        Sample(
            "PasskeyRegistrationRequest",
            PasskeyRegistrationRequest(
                challengeId: challengeID, credential: registrationResponse, name: "iCloud Keychain")),
        Sample(
            "PasskeyCreated",
            PasskeyCreated(
                id: credentialID, name: "iCloud Keychain", createdAt: createdAt, backedUp: true, attestation: "none")),
        Sample("Passkey", passkey),
        Sample("RenamePasskeyRequest", RenamePasskeyRequest(name: "YubiKey 5C")),
        Sample("RemovePasskeyRequest", RemovePasskeyRequest(verificationToken: jwt)),
        Sample("PasskeyAuthenticationOptionsRequest", PasskeyAuthenticationOptionsRequest(email: "alice@example.com")),
        Sample(
            "PasskeyAuthenticationOptions",
            PasskeyAuthenticationOptions(challengeId: challengeID, options: requestOptions)),
        Sample("PublicKeyCredentialDescriptor", descriptor),
        Sample("PublicKeyCredentialRequestOptions", requestOptions),
        Sample("PublicKeyCredentialCreationOptions", creationOptions),
        Sample("RegistrationResponse", registrationResponse),
        Sample("AuthenticationResponse", authenticationResponse),
        Sample(
            "TOTPEnrollment",
            TOTPEnrollment(
                secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
                otpauthURI:
                    "otpauth://totp/Latch:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Latch")),
        Sample("TOTPActivationRequest", TOTPActivationRequest(code: "482915")),
        Sample(
            "TOTPActivated",
            TOTPActivated(recoveryCodes: (2...9).map { "k7m2\($0)-p9x4q" } + ["ab3cd-ef4gh", "zz9yx-2wv7u"])),
        Sample("VerificationTokenBody", VerificationTokenBody(verificationToken: jwt)),
        Sample("FundPasswordRequest", FundPasswordRequest(fundPassword: "258369", currentFundPassword: "147258")),
        Sample("SecurityEvent", securityEvent),
        Sample(
            "SecurityEventPage",
            SecurityEventPage(
                events: [
                    securityEvent,
                    SecurityEventInfo(
                        id: credentialID, type: "sign_in_failed", sessionId: nil, ip: "203.0.113.9",
                        createdAt: createdAt, count: 40)
                ], nextCursor: randomBase64URL)),
        Sample("SecuritySettings", SecuritySettings(verifyUnusualSignIns: true)),
        Sample(
            "SecuritySettings", "with factors",
            SecuritySettings(
                verifyUnusualSignIns: true,
                factors: .init(totp: true, fundPassword: false, biometric: true, recoveryCodesRemaining: 8))),
        Sample("SecuritySettingsUpdate", SecuritySettingsUpdate(verifyUnusualSignIns: false, verificationToken: jwt)),
        Sample("Session", session),
        Sample(
            "TokenRequest", "password",
            TokenRequest.password(email: "alice@example.com", password: "Correct-Horse-9", device: device)),
        Sample("TokenRequest", "refresh_token", TokenRequest.refresh(randomBase64URL)),
        Sample(
            "TokenRequest", "device_signature",
            TokenRequest(grantType: .deviceSignature, challengeId: challengeID, signature: "MEUCIQDx", device: device)),
        Sample(
            "TokenRequest", "login_challenge",
            TokenRequest(grantType: .loginChallenge, challengeId: challengeID, code: "482915")),
        Sample(
            "TokenRequest", "apple",
            TokenRequest(
                grantType: .apple, identityToken: jwt, nonce: "n-0S6_WzA2Mj", fullName: "Alice Liddell", device: device,
                authorizationCode: "c1f2.0.abc")),
        Sample("TokenRequest", "wechat", TokenRequest(grantType: .wechat, code: "081Kq4Ga1Yx8xL0", device: device)),
        Sample(
            "TokenRequest", "sms_code",
            TokenRequest(grantType: .smsCode, code: "482915", phone: "+8613800138000", device: device)
        ),
        Sample(
            "TokenRequest", "passkey",
            TokenRequest(
                grantType: .passkey, challengeId: challengeID, credential: authenticationResponse, device: device)),
        Sample("TokenResponse", tokenResponse),
        Sample("User", user),
        Sample(
            "VerificationRequest",
            VerificationRequest(
                action: "withdrawal",
                parameters: ["amount": "100.00", "currency": "USDT", "address": "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE"])),
        Sample(
            "VerificationMethodOffer", "biometric",
            VerificationMethodOffer(
                type: .biometric, credentialIds: [credentialID], challengeId: challengeID, challenge: randomBase64URL)),
        Sample(
            "VerificationMethodOffer", "passkey",
            VerificationMethodOffer(
                type: .passkey, challengeId: challengeID, challenge: randomBase64URL, options: requestOptions)),
        Sample(
            "VerificationStarted",
            VerificationStarted(
                verificationId: challengeID,
                methods: [
                    VerificationMethodOffer(
                        type: .biometric, credentialIds: [credentialID], challengeId: challengeID,
                        challenge: randomBase64URL),
                    VerificationMethodOffer(type: .totp), VerificationMethodOffer(type: .fundPassword)
                ],
                preferred: .biometric, expiresIn: 300)),
        Sample(
            "VerificationAttempt", "biometric",
            VerificationAttempt(method: .biometric, credentialId: credentialID, signature: "MEUCIQDx")),
        Sample(
            "VerificationAttempt", "passkey", VerificationAttempt(method: .passkey, credential: authenticationResponse)),
        Sample("VerificationAttempt", "totp", VerificationAttempt(method: .totp, code: "482915")),
        Sample(
            "VerificationAttempt", "fund_password", VerificationAttempt(method: .fundPassword, fundPassword: "258369")),
        Sample("VerificationPassed", VerificationPassed(verificationToken: jwt, expiresIn: 300)),
        Sample(
            "RedeemVerificationRequest",
            RedeemVerificationRequest(verificationToken: jwt, action: "withdrawal", parameters: ["amount": "100.00"])),
        Sample(
            "RedeemedVerification",
            RedeemedVerification(userId: userID, action: "withdrawal", methods: [.totp], verifiedAt: later)),
        Sample(
            "RedeemedVerification", "two factors",
            RedeemedVerification(
                userId: userID, action: "withdrawal", methods: [.biometric, .emailCode], verifiedAt: later)),
        Sample(
            "VerificationProgress",
            VerificationProgress(
                remainingFactors: 1, passed: [.fundPassword], methods: [VerificationMethodOffer(type: .emailCode)])),
        Sample(
            "VerificationReason",
            VerificationReason(
                code: "amount_above_threshold", message: "Amounts above 10,000 USDT need two verifications.")),
        Sample(
            "VerificationProgress", "as an attempt's result",
            VerificationAttemptResult.needsAnotherFactor(
                VerificationProgress(
                    remainingFactors: 1, passed: [.biometric],
                    methods: [VerificationMethodOffer(type: .totp), VerificationMethodOffer(type: .emailCode)]))),
        // Issue 19: containment.
        Sample(
            "Error", "security hold",
            APIErrorBody(
                error: "SECURITY_HOLD", message: "Paused.",
                details: LatchErrorDetails(holdUntil: later, reason: "password_reset", action: "withdrawal"))),
        Sample("Error", "frozen", APIErrorBody(error: "ACCOUNT_FROZEN", message: "Frozen.")),
        Sample(
            "SecurityEvent", "containment",
            SecurityEventInfo(
                id: challengeID, type: "security_reset", sessionId: nil, ip: "203.0.113.7", createdAt: createdAt,
                actor: "freeze_link", detail: "sessions=2 device_keys=1 passkeys=1 verification_tokens=0")),
        Sample(
            "ResetPasswordRequest", "second factor",
            ResetPasswordRequest(
                email: "alice@example.com", code: "482915", newPassword: "Battery-Staple-7", secondFactor: "482916")),
        Sample("SecurityHold", securityHold),
        Sample("AccountSecurityStatus", AccountSecurityStatus(holds: [securityHold], antiPhishingCode: "Blue-Fox-42")),
        Sample("AccountSecurityStatus", "none", AccountSecurityStatus(holds: [], antiPhishingCode: nil)),
        Sample("AntiPhishingCodeUpdate", AntiPhishingCodeUpdate(code: "Blue-Fox-42", verificationToken: jwt)),
        Sample("FreezeRequest", FreezeRequest(token: randomBase64URL))
    ]
    static let securityHold = SecurityHoldInfo(
        actions: ["withdrawal"], reason: "unfrozen", startedAt: createdAt, holdUntil: later)
}
