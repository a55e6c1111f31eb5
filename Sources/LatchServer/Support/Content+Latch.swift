import LatchCore
import NIOFoundationCompat
import Vapor

extension TokenResponse: Content {}
extension UserInfo: Content {}
extension SessionInfo: Content {}
extension SecurityEventInfo: Content {}
extension RegistrationAccepted: Content {}
extension RegistrationRequest: Content {}
extension VerifyCodeRequest: Content {}
extension TokenRequest: Content {}
extension UpdateProfileRequest: Content {}
extension ForgotPasswordRequest: Content {}
extension ResetPasswordRequest: Content {}
extension ChangePasswordRequest: Content {}
extension OutgoingMessage: Content {}
extension JWKSDocument: Content {}

extension Request {
    /// Decodes a JSON body, insisting on `Content-Type: application/json` (the rule of
    /// `JSONBodyMiddleware`, checked here too for routes mounted elsewhere) so the errors are the API's own.
    func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        guard let body = body.data, body.readableBytes > 0 else {
            throw LatchError(.malformedBody)
        }
        guard JSONBodyMiddleware.isJSON(headers) else {
            throw LatchError(.unsupportedMediaType)
        }
        return try LatchJSON.decoder.decode(T.self, from: body)
    }
}

extension TOTPEnrollment: Content {}
extension SecuritySettings: Content {}
extension TOTPActivated: Content {}
extension DeviceCredentialCreated: Content {}
extension DeviceCredentialInfo: Content {}
extension SignatureChallengeInfo: Content {}
extension VerificationStarted: Content {}
extension VerificationPassed: Content {}
extension VerificationAttemptResult: Content {}
extension RedeemedVerification: Content {}
