import HTTPTypes
import Hummingbird
import LatchCore

extension TokenResponse: ResponseEncodable {}
extension UserInfo: ResponseEncodable {}
extension SessionInfo: ResponseEncodable {}
extension SecurityEventInfo: ResponseEncodable {}
extension RegistrationAccepted: ResponseEncodable {}
extension OutgoingMessage: ResponseEncodable {}
extension JWKSDocument: ResponseEncodable {}

extension TOTPEnrollment: ResponseEncodable {}
extension SecuritySettings: ResponseEncodable {}
extension TOTPActivated: ResponseEncodable {}
extension DeviceCredentialCreated: ResponseEncodable {}
extension DeviceCredentialInfo: ResponseEncodable {}
extension SignatureChallengeInfo: ResponseEncodable {}
extension VerificationStarted: ResponseEncodable {}
extension VerificationPassed: ResponseEncodable {}
extension VerificationAttemptResult: ResponseEncodable {}
extension RedeemedVerification: ResponseEncodable {}
