import AsyncHTTPClient
import FluentKit
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import Synchronization

/// The carrier of the `push` channel (issue 43 §2): one `POST /3/device/{token}` to APNs over HTTP/2
/// with the shared provider token, and what its answer means for the durable queue:
///
/// | answer | meaning |
/// |---|---|
/// | 200 | delivered |
/// | 410 Unregistered, 400 BadDeviceToken | the token is taken off its key; permanent |
/// | 403 ExpiredProviderToken, InvalidProviderToken | the provider token is dropped; temporary |
/// | 429, 5xx, no answer | temporary (retried with backoff) |
/// | any other | permanent |
///
/// A push whose key no longer holds its token (unbound, reset, replaced), or whose verification has
/// expired, is not sent.
struct APNsSender: Sendable {
    let settings: APNsSettings
    let providerToken: APNsProviderToken
    let client: HTTPClient
    let clock: LatchClock
    let database: @Sendable () -> any Database
    var timeout: TimeAmount = .seconds(15)

    init(settings: APNsSettings, clock: LatchClock, database: @escaping @Sendable () -> any Database) throws {
        self.settings = settings
        self.providerToken = APNsProviderToken(
            keyID: settings.keyID, teamID: settings.teamID, privateKey: settings.privateKey, clock: clock)
        self.client = try APNsHTTPClients.client(trusting: settings.extraTrustRootsPEM)
        self.clock = clock
        self.database = database
    }

    /// Why APNs did not take a push (the status and Apple's reason: never the token or the text).
    enum Failure: DeliveryFailure, Equatable {
        case rejected(status: UInt, reason: String?)
        case transport(String)

        var isTemporary: Bool {
            switch self {
            case .rejected(let status, let reason):
                status == 429 || status >= 500
                    || (status == 403 && APNsSender.providerTokenReasons.contains(reason ?? ""))
            case .transport: true
            }
        }

        var description: String {
            switch self {
            case .rejected(let status, let reason): "APNs answered \(status) \(reason ?? "")"
            case .transport(let reason): "APNs could not be reached: \(reason)"
            }
        }
    }

    /// Apple's reasons for a provider token it will not take.
    static let providerTokenReasons: Set<String> = ["ExpiredProviderToken", "InvalidProviderToken"]

    /// One attempt.
    func send(_ push: APNsPush) async throws {
        guard Double(push.expiresAt) > clock.epochSeconds,
            try await PushTokenStore().holds(push.token, credential: push.credentialID, on: database())
        else { return }
        let environment = PushEnvironment(rawValue: push.environment) ?? .production
        let jwt = try await providerToken.token()
        var request = HTTPClientRequest(url: "https://\(settings.host(for: environment))/3/device/\(push.token)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: settings.topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-expiration", value: String(push.expiresAt))
        request.headers.add(name: "apns-priority", value: "10")
        request.headers.add(name: "apns-collapse-id", value: push.verificationID.uuidString.lowercased())
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: push.notification))
        let status: UInt
        let answer: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: timeout)
            status = response.status.code
            answer = try await response.body.collect(upTo: 64 * 1024)
        } catch {
            throw Failure.transport(String(describing: type(of: error)))
        }
        guard status != 200 else { return }
        let reason = (try? JSONDecoder().decode(Answer.self, from: Data(buffer: answer)))?.reason
        if status == 410 || (status == 400 && reason == "BadDeviceToken") {
            try await PushTokenStore().clear(push.token, of: push.credentialID, on: database())
        }
        if status == 403, Self.providerTokenReasons.contains(reason ?? "") {
            await providerToken.refused(jwt)
        }
        throw Failure.rejected(status: status, reason: reason)
    }

    /// APNs' error body.
    struct Answer: Decodable {
        let reason: String?
    }
}

/// latchd's HTTP/2 clients to APNs, one per set of trust roots, for the life of the process (as
/// `OutboundHTTP.shared`): no redirects, no decompression, no spans (the URL holds the device token).
enum APNsHTTPClients {
    private static let clients = Mutex<[String: HTTPClient]>([:])

    static func client(trusting extraRootsPEM: String?) throws -> HTTPClient {
        let key = extraRootsPEM ?? ""
        if let client = clients.withLock({ $0[key] }) { return client }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let extraRootsPEM {
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(extraRootsPEM.utf8)))]
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)),
            decompression: .disabled)
        configuration.httpVersion = .automatic
        configuration.tracing.tracer = nil
        return clients.withLock { clients in
            if let client = clients[key] { return client }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[key] = client
            return client
        }
    }
}
