import HTTPTypes
import Hummingbird

/// `GET /dev/outbox?to=ADDRESS`: the development outbox. Registered only in development;
/// in production the path is unknown (404).
///
/// Even in development it holds live codes, so it answers only a client on this machine (the TCP
/// peer is 127.0.0.0/8 or ::1; anyone else gets the 404 of a path that does not exist, whatever
/// `X-Forwarded-For` says), only when the request names this machine in `Host` (`localhost`,
/// 127.0.0.0/8 or ::1, any port: a web page that rebinds its own name to 127.0.0.1 — DNS
/// rebinding — sends its own name and gets the same 404, issue 20 §8), and only for one address at
/// a time (`?to=` is required: 400 without it).
struct OutboxRoutes: LatchRouteCollection {
    let outbox: DevelopmentOutbox

    func boot(routes: LatchRoutes) throws {
        routes.get("dev", "outbox") { req async throws -> [OutgoingMessage] in
            guard LoopbackAddress.isLoopback(req.remoteAddress),
                let host = req.host, LoopbackAddress.isLoopback(hostHeader: host)
            else { throw LatchError.notFound }
            guard let address = req.query[String.self, at: "to"], !address.isEmpty else {
                throw LatchError.missing("to")
            }
            return await outbox.messages(to: address)
        }
    }
}
