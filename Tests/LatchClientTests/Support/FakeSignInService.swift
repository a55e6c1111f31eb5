// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    @MainActor
    final class FakeSignInService: SignInService {
        var calls: [String] = []
        var answers: [Result<UserInfo, LatchClientError>] = []
        var codeAnswers: [Result<SMSCodeAccepted, LatchClientError>] = []

        func signInWithPassword(email: String, password: String) async throws -> UserInfo {
            calls.append("password \(email) \(password)")
            return try nextAnswer(&answers, for: calls.last ?? "")
        }

        func answerSignInChallenge(id: String, code: String) async throws -> UserInfo {
            calls.append("challenge \(id) \(code)")
            return try nextAnswer(&answers, for: calls.last ?? "")
        }

        func sendSignInCode(phone: String) async throws -> SMSCodeAccepted {
            calls.append("sms \(phone)")
            return try nextAnswer(&codeAnswers, for: "sendSignInCode")
        }

        func signInWithCode(phone: String, code: String) async throws -> UserInfo {
            calls.append("code \(phone) \(code)")
            return try nextAnswer(&answers, for: calls.last ?? "")
        }
    }
#endif
