// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    let screenUser = UserInfo(
        id: "u-1", email: "user@example.com", emailVerified: true, nickname: nil,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))
#endif
