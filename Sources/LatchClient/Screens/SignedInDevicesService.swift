import LatchCore

/// What the signed-in devices screen needs from the server; `LatchClient` is one, tests pass a fake.
public protocol SignedInDevicesService: Sendable {
    /// `GET /v1/sessions`: the account's signed-in devices, this one `current`.
    func sessions() async throws -> [SessionInfo]
    /// `DELETE /v1/sessions/{id}`: signs out one device.
    func revokeSession(id: String) async throws
    /// `DELETE /v1/sessions?scope=others`: signs out every other device.
    func revokeOtherSessions() async throws
}

extension LatchClient: SignedInDevicesService {}
