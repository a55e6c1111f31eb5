// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    @MainActor
    final class FakeRegistrationService: RegistrationService {
        struct Start: Equatable {
            var email: String, password: String, nickname: String?, acceptTerms: Bool
        }

        var starts: [Start] = []
        var finishes: [(id: String, code: String)] = []
        var startAnswers: [Result<String, LatchClientError>] = []
        var finishAnswers: [Result<UserInfo, LatchClientError>] = []

        func startRegistration(email: String, password: String, nickname: String?, acceptTerms: Bool) async throws
            -> String
        {
            starts.append(Start(email: email, password: password, nickname: nickname, acceptTerms: acceptTerms))
            return try nextAnswer(&startAnswers, for: "startRegistration")
        }

        func finishRegistration(id: String, code: String) async throws -> UserInfo {
            finishes.append((id, code))
            return try nextAnswer(&finishAnswers, for: "finishRegistration")
        }
    }
#endif
