import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession`: Foundation on Apple platforms, FoundationNetworking on Linux.
///
/// The default session is ephemeral (no cookies, no disk cache: answers carry tokens) with a 30-second
/// request timeout. On Apple platforms a ``PinningPolicy`` can be given; it is enforced during the TLS
/// handshake, after the system's own trust evaluation.
///
///     let transport = try URLSessionTransport(pinning: PinningPolicy([
///         .init(host: "auth.example.com", pins: [serverKeyPin, backupKeyPin]),
///     ]))
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let ownsSession: Bool

    /// A transport over `session` (its configuration and delegate are the caller's).
    public init(session: URLSession) {
        self.session = session
        self.ownsSession = false
    }

    /// A transport over a new ephemeral session.
    public convenience init() {
        self.init(ownedSession: URLSession(configuration: Self.defaultConfiguration()))
    }

    #if canImport(Security)
        /// A transport over a new ephemeral session that enforces `pinning` (Apple platforms).
        public convenience init(pinning: PinningPolicy) {
            let delegate = PinningURLSessionDelegate(policy: pinning)
            self.init(
                ownedSession: URLSession(
                    configuration: Self.defaultConfiguration(), delegate: delegate, delegateQueue: nil))
        }
    #endif

    private init(ownedSession: URLSession) {
        self.session = ownedSession
        self.ownsSession = true
    }

    deinit {
        // A session holds its delegate until invalidated.
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    /// The configuration of the sessions this type creates: ephemeral, 30-second request timeout.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        return configuration
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String else { continue }
            headers[name] = value as? String ?? "\(value)"
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}
