import Foundation
import LatchCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LatchClient {
    /// An access token with more than 5 minutes left, refreshed first when needed (concurrent callers
    /// share one refresh), for an app's own calls to its backend. Where the token goes is the app's choice
    /// here (``send(_:)`` sends it only to this client's server). Throws ``LatchClientError/notSignedIn``
    /// without a session and ``LatchClientError/server(_:)`` AUTH_004 when the session is over.
    ///
    ///     let token = try await client.validAccessToken()
    public func validAccessToken() async throws -> String {
        try await coordinator.accessToken()
    }

    /// Sets `Authorization: Bearer …` on `request` with a valid access token (see ``validAccessToken()``).
    /// Throws ``UntrustedRequestURL`` (and reads no token) when `request.url` is not on this client's
    /// server, as ``send(_:)`` does.
    ///
    ///     var request = URLRequest(url: ordersURL)
    ///     try await client.authorize(&request)
    ///     let (data, _) = try await URLSession.shared.data(for: request)
    public func authorize(_ request: inout URLRequest) async throws {
        try ServerURLPolicy.checkTokenDestination(request.url, server: api.serverURL)
        request.setValue("Bearer \(try await validAccessToken())", forHTTPHeaderField: "Authorization")
    }
}
