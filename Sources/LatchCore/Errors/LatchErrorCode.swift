/// The stable error codes of the Latch HTTP API (`{"error": CODE, "message": …}`).
///
/// Codes are a contract: apps branch on them. Messages are for people and come in both languages.
public enum LatchErrorCode: String, Sendable, Codable, CaseIterable {
    /// Wrong email or password (also for unknown accounts, identically).
    case wrongCredentials = "AUTH_001"
    /// Locked after too many failures; the body carries `locked_until`.
    case locked = "AUTH_002"
    /// Wrong, expired or used-up code; the body may carry `attempts_remaining`.
    case wrongCode = "AUTH_003"
    /// Access or refresh token expired, revoked or invalid.
    case sessionExpired = "AUTH_004"
    /// A field is missing, has the wrong type or breaks a rule; the body names `field`.
    case validationFailed = "VALIDATION_FAILED"
    /// The request body is not valid JSON.
    case malformedBody = "MALFORMED_BODY"
    /// The request body is larger than the server accepts.
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    /// Too many requests; the body carries `retry_after` (seconds).
    case rateLimited = "RATE_LIMITED"
    /// No such resource (or not yours).
    case notFound = "NOT_FOUND"
    /// The method is not allowed on this path.
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    /// The body is not JSON (`Content-Type` must be `application/json`).
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
    /// The request conflicts with the current state (e.g. a single-use proof already used).
    case conflict = "CONFLICT"
    /// The action needs a recent sign-in or a verification token (or, for an unusual sign-in, a code).
    case verificationRequired = "VERIFICATION_REQUIRED"
    /// A verification token is unknown, expired, or for another user, action or parameters.
    case verificationInvalid = "VERIFICATION_INVALID"
    /// The user has no way to verify a sensitive action yet: set a fund password first.
    case noVerificationMethod = "NO_VERIFICATION_METHOD"
    /// A per-user limit is reached (e.g. 10 bound devices).
    case limitReached = "LIMIT_REACHED"
    /// Something failed inside the server; nothing sensitive is said.
    case internalError = "INTERNAL_ERROR"
    /// An operator disabled the account (issue 12): no grant signs it in, its sessions are over (403).
    case accountDisabled = "ACCOUNT_DISABLED"
    /// A security hold runs (issue 19 §2): the action is paused after a recent security change; the body
    /// carries `hold_until`, `reason` (a `SecurityHoldReason`) and `action` (403).
    case securityHold = "SECURITY_HOLD"
    /// The account is frozen ("this wasn't me", issue 19 §3): no grant signs it in until the owner
    /// recovers it with a password reset by email code (plus the TOTP or a recovery code when 2FA is on) (403).
    case accountFrozen = "ACCOUNT_FROZEN"
    /// The verification policy's daily limit for the action (issue 30 §1): the body carries `unit`,
    /// `limit` and `remaining` (decimal strings) (403).
    case policyLimit = "POLICY_LIMIT"
    /// A value of the action's locked parameter (e.g. a withdrawal address) this user never used before
    /// is time-locked (issue 30 §1): the body carries `parameter` and `locked_until` (403).
    case newValueLocked = "NEW_VALUE_LOCKED"
    /// A DPoP proof (RFC 9449) is missing where the session or `LATCH_DPOP=required` needs one, or fails a
    /// check; `reasons` names which (`missing`, `wrong_htu`, `replayed`, `wrong_key`, …). The answer carries
    /// `WWW-Authenticate: DPoP error="invalid_dpop_proof"` (or `invalid_token` for a bound token sent as
    /// `Bearer`) (401; 400 at the token endpoint, as RFC 9449 §5 says).
    case dpopInvalid = "DPOP_INVALID"
    /// The proof must carry the server's current nonce (`LATCH_DPOP_NONCE=1`): the `DPoP-Nonce` header of
    /// this answer holds it; sign the proof again with it (401; 400 at the token endpoint, RFC 9449 §8).
    case useDPoPNonce = "USE_DPOP_NONCE"

    /// The HTTP status this code answers with unless the case says otherwise (the one place that
    /// pairs them; e.g. VALIDATION_FAILED is 422 for a value that breaks a rule, 400 for a missing one).
    public var defaultStatus: Int {
        switch self {
        case .wrongCredentials, .sessionExpired, .dpopInvalid, .useDPoPNonce: 401
        case .locked: 423
        case .wrongCode, .validationFailed, .malformedBody: 400
        case .payloadTooLarge: 413
        case .rateLimited: 429
        case .notFound: 404
        case .methodNotAllowed: 405
        case .unsupportedMediaType: 415
        case .conflict, .noVerificationMethod, .limitReached: 409
        case .verificationRequired, .verificationInvalid, .accountDisabled, .securityHold, .accountFrozen, .policyLimit,
            .newValueLocked:
            403
        case .internalError: 500
        }
    }

    /// The human message for this code in the given language.
    public func message(in language: LatchLanguage) -> String {
        switch (self, language) {
        case (.wrongCredentials, .zhHans): "邮箱或密码错误"
        case (.wrongCredentials, .en): "Wrong email or password."
        case (.locked, .zhHans): "账号已被锁定"
        case (.locked, .en): "The account is locked."
        case (.wrongCode, .zhHans): "验证码错误"
        case (.wrongCode, .en): "The verification code is wrong or has expired."
        case (.sessionExpired, .zhHans): "登录已过期"
        case (.sessionExpired, .en): "Your session has expired. Please sign in again."
        case (.validationFailed, .zhHans): "请求参数无效"
        case (.validationFailed, .en): "The request is invalid."
        case (.malformedBody, .zhHans): "请求体不是有效的 JSON"
        case (.malformedBody, .en): "The request body is not valid JSON."
        case (.payloadTooLarge, .zhHans): "请求体过大"
        case (.payloadTooLarge, .en): "The request body is too large."
        case (.rateLimited, .zhHans): "请求过于频繁，请稍后再试"
        case (.rateLimited, .en): "Too many requests. Please try again later."
        case (.notFound, .zhHans): "资源不存在"
        case (.notFound, .en): "Not found."
        case (.methodNotAllowed, .zhHans): "不支持该请求方法"
        case (.methodNotAllowed, .en): "This method is not allowed here."
        case (.unsupportedMediaType, .zhHans): "请求体必须是 JSON（Content-Type: application/json）"
        case (.unsupportedMediaType, .en): "The request body must be JSON (Content-Type: application/json)."
        case (.conflict, .zhHans): "请求与当前状态冲突"
        case (.conflict, .en): "The request conflicts with the current state."
        case (.verificationRequired, .zhHans): "此操作需要先验证身份"
        case (.verificationRequired, .en): "Please verify it is you before doing this."
        case (.verificationInvalid, .zhHans): "验证已失效，请重新验证"
        case (.verificationInvalid, .en): "This verification is not valid for this action. Please verify again."
        case (.noVerificationMethod, .zhHans): "请先设置资金密码"
        case (.noVerificationMethod, .en): "Set a fund password first to confirm sensitive actions."
        case (.limitReached, .zhHans): "已达到数量上限"
        case (.limitReached, .en): "The limit has been reached."
        case (.internalError, .zhHans): "服务器内部错误，请稍后重试"
        case (.internalError, .en): "Something went wrong on the server. Please retry."
        case (.accountDisabled, .zhHans): "该账号已被停用，请联系客服"
        case (.accountDisabled, .en): "This account has been disabled. Please contact support."
        case (.securityHold, .zhHans): "为保障资金安全，安全设置变更后暂停此操作"
        case (.securityHold, .en): "For your security, this action is paused for a while after a security change."
        case (.accountFrozen, .zhHans): "账号已冻结。请通过邮箱验证码重置密码以恢复账号（如已开启两步验证，还需验证码或恢复码）"
        case (.accountFrozen, .en):
            "This account is frozen. To recover it, reset your password with the code we email you (and your authenticator code or a recovery code if two-step verification is on)."
        case (.policyLimit, .zhHans): "已超过今日额度"
        case (.policyLimit, .en): "This would exceed your limit for the last 24 hours."
        case (.newValueLocked, .zhHans): "为保障资金安全，新地址需等待一段时间后才能使用"
        case (.newValueLocked, .en): "For your security, a new address can be used only after a waiting period."
        case (.dpopInvalid, .zhHans): "请求未通过设备密钥校验"
        case (.dpopInvalid, .en): "This request is not signed by the key its session is bound to."
        case (.useDPoPNonce, .zhHans): "请使用服务器提供的随机数重新签名请求"
        case (.useDPoPNonce, .en): "Sign the request again with the server's nonce (DPoP-Nonce)."
        }
    }
}
