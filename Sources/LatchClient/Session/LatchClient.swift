import Foundation
import LatchCore

/// The session side of the Latch SDK: sign-up, sign-in, the session's tokens (kept in a vault,
/// refreshed in time), authorized requests, the signed-in devices, and sign-out.
///
///     let client = LatchClient(serverURL: URL(string: "https://auth.example.com")!, vault: KeychainVault())
///     Task { for await state in client.state { render(state) } }   // .signedOut, .signedIn(user), .expired
///     _ = await client.restoreSession()                              // at launch
///     try await client.signIn(email: "a@example.com", password: "Secret123")
///     let response = try await client.send(HTTPRequest(method: "GET", url: ordersURL))  // bearer added
///     // (only to the server's own origin: https://auth.example.com/…, see send(_:))
///     await client.signOut()
///
/// Tokens are refreshed when less than 5 minutes remain before a request, when a request is refused
/// with 401 (then the request is replayed once), and at launch. Concurrent requests share one refresh.
public final class LatchClient: Sendable {
    /// The typed HTTP API this client talks through.
    public let api: LatchAPI
    /// Where the session (key `session`) and the installation id (key `installation-id`) are kept.
    public let vault: any TokenVault
    /// The language of the server's messages and of the SDK's own texts: the one given at init, else
    /// the first of the device's preferred languages that Latch speaks (`Locale.preferredLanguages`).
    public let language: LatchLanguage

    let broadcast: SessionStateBroadcast
    let coordinator: RefreshCoordinator
    /// The current time, as injected at init (the verification page's hold countdown reads it too).
    let clock: @Sendable () -> Date
    let identity: InstallationIdentity
    /// App Attest on device binding (issue 31 §3), when the app passed an `appAttester`.
    let appAttest: AppAttestSession?

    /// A client of the latchd at `serverURL`, which must be `https` (plain `http` only for a loopback
    /// host, seed 004 §8.1): another URL stops a debug build here, and every call fails with
    /// ``InsecureServerURL`` without sending anything.
    ///
    /// - Parameters:
    ///   - vault: `KeychainVault()` on Apple platforms, `FileVault()` elsewhere, `InMemoryVault()` in tests.
    ///   - transport: how HTTP is sent (`URLSessionTransport`, optionally with certificate pinning on Apple).
    ///   - acceptLanguage: the language of the server's messages (`zh-Hans` or `en`); when nil, the
    ///     device's: the first of `Locale.preferredLanguages` that Latch speaks, else English.
    ///   - refreshPolicy: when to refresh (default: less than 5 minutes left).
    ///   - clock: the current time; injected so that tests decide it.
    ///   - dpopKeys: where the session's DPoP key is kept (issues 31 and 41): every sign-in binds its session
    ///     to the key, every request carries a proof, and signing out discards the key. By default
    ///     ``DPoPKeyStores/platform``: the Secure Enclave where there is one (iOS, macOS, visionOS devices),
    ///     else a software key in `vault` (Linux, the Simulator). `nil` (`.none`) opts out: bearer sessions.
    ///   - appAttester: App Attest (issue 31 §3; `DeviceCheckAppAttester()` on iOS): with one, every device
    ///     key bind carries an attestation of a fresh App Attest key, and every device-key signature (biometric
    ///     verification, biometric sign-in) carries that key's assertion; nil, or a device that cannot
    ///     attest: binds without (latchd decides by `LATCH_APP_ATTEST`).
    ///   - app: the app's bundle id and version, recorded with every device key bind and listed.
    public init(
        serverURL: URL, vault: any TokenVault, transport: any HTTPTransport = URLSessionTransport(),
        acceptLanguage: String? = nil, refreshPolicy: RefreshPolicy = RefreshPolicy(),
        clock: @escaping @Sendable () -> Date = { Date() },
        dpopKeys: (any DPoPKeyStore)? = DPoPKeyStores.platform,
        appAttester: (any AppAttester)? = nil, app: AppIdentity? = nil
    ) {
        assert(ServerURLPolicy.allows(serverURL), InsecureServerURL(url: serverURL).description)
        let language = acceptLanguage.map { LatchLanguage(acceptLanguage: $0) } ?? .device
        let signer = PlatformDPoPKeyStore.resolve(dpopKeys, vault: vault).map { DPoPSigner(keys: $0, clock: clock) }
        let api = LatchAPI(
            serverURL: serverURL, transport: transport, acceptLanguage: acceptLanguage ?? language.rawValue,
            dpop: signer)
        let broadcast = SessionStateBroadcast(.signedOut)
        self.language = language
        self.api = api
        self.vault = vault
        self.broadcast = broadcast
        self.clock = clock
        self.identity = InstallationIdentity(vault: vault)
        self.appAttest = appAttester.map { AppAttestSession(attester: $0, app: app, vault: vault) }
        self.coordinator = RefreshCoordinator(
            vault: vault, policy: refreshPolicy, clock: clock, broadcast: broadcast,
            refresh: { refreshToken in try await api.refreshGrant(refreshToken: refreshToken) },
            sessionEnded: { try? await signer?.discard() })
    }

    // MARK: - State

    /// The session state, starting with the current one; each change is announced once.
    public var state: AsyncStream<SessionState> { broadcast.stream() }

    /// The session state now. `.signedOut` until ``restoreSession()`` or a sign-in says otherwise.
    public var currentState: SessionState { broadcast.current }

    /// Brings back the stored session at launch (C6): signed in when the vault holds a session (refreshed
    /// first when less than 5 minutes remain; a network failure keeps it signed in), signed out when it
    /// holds none or the server says it is over, `.expired` when its refresh token has run out.
    /// A vault that cannot be read now (a locked device) answers `.vaultUnavailable` and changes nothing.
    @discardableResult
    public func restoreSession() async -> SessionRestoration {
        await coordinator.restore()
    }

    /// Refreshes the session's tokens now, whatever their age (joining a refresh already running).
    @discardableResult
    public func refreshSession() async throws -> UserInfo {
        try await coordinator.refresh()
    }

    // MARK: - Authorized requests

    /// `request` with `Authorization: Bearer …` of the session, refreshed first when less than 5 minutes
    /// remain. For requests an app sends by its own means; ``send(_:)`` also handles a 401.
    ///
    /// Throws ``UntrustedRequestURL`` (and reads no token) when `request.url` is not on this client's
    /// server, as ``send(_:)`` does. With a DPoP key (`dpopKeys:`), the request also carries its proof
    /// and a bound token goes as `Authorization: DPoP`: send it at once (a proof is good for one request,
    /// for 5 minutes).
    public func authorizedRequest(_ request: HTTPRequest) async throws -> HTTPRequest {
        try ServerURLPolicy.checkTokenDestination(request.url, server: api.serverURL)
        let authorized = request.authorized(with: try await coordinator.accessToken())
        guard let dpop = api.dpop else { return authorized }
        return try await dpop.signed(authorized)
    }

    /// Sends `request` with the session's bearer token. When the answer is 401 because the token was
    /// refused (AUTH_004, or a 401 that is not in Latch's error format), the session is refreshed and
    /// the request replayed once; a second 401 is returned as it is.
    ///
    /// The token goes only to this client's server (issue 28 §3): `request.url` must have the server
    /// URL's scheme, host and port (any path), and be `https` (plain `http` only to a loopback host).
    /// Any other URL is refused with ``UntrustedRequestURL`` before anything is sent or refreshed: a
    /// request to another host is a mistake to see at once (a silent send without the token would only
    /// come back as that host's 401, and a send with it would hand the session to that host). For a
    /// backend on another host, attach ``validAccessToken()`` yourself.
    ///
    ///     // client of https://auth.example.com
    ///     _ = try await client.send(HTTPRequest(method: "GET", url: URL(string: "https://auth.example.com/orders")!))
    ///     _ = try await client.send(HTTPRequest(method: "GET", url: URL(string: "https://cdn.example.net/a")!))
    ///     // throws UntrustedRequestURL, reason .otherServer
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try ServerURLPolicy.checkTokenDestination(request.url, server: api.serverURL)
        let token = try await coordinator.accessToken()
        let response = try await api.send(request.authorized(with: token))
        guard Self.refusesToken(response) else { return response }
        let replacement = try await coordinator.accessToken(replacing: token)
        return try await api.send(request.authorized(with: replacement))
    }

    /// Sends an API call, with the session's token when it needs one (see ``send(_:)``).
    public func perform<Response>(_ call: APICall<Response>) async throws -> Response {
        guard call.requiresAuthorization else { return try await api.perform(call) }
        let response = try await send(api.request(for: call))
        return try api.result(of: call, from: response)
    }

    /// Whether a 401 says the access token was refused (rather than, say, a wrong current password).
    static func refusesToken(_ response: HTTPResponse) -> Bool {
        guard response.status == 401 else { return false }
        switch LatchAPI.error(from: response) {
        case .unexpected: return true
        case let error: return error.isSessionExpired
        }
    }
}
