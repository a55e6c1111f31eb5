import FluentKit
import Logging
import NIOCore

/// How a route opens the database for one request: on the request's event loop (so SQLite's connection of
/// that loop serves it), logging to the request's logger. A route collection that reads or writes gets one
/// when the router is built (`LatchApplication.install(on:)`) and calls it with the request:
///
///     let database: RequestDatabase
///     func list(_ req: LatchRequest) async throws -> SecurityEventPage {
///         try await SecurityEventPage.query(userID: try req.signedIn.userID, limit: nil, cursor: nil, on: database(req))
///     }
struct RequestDatabase: Sendable {
    /// Opens the database on an event loop, logging to a logger.
    let open: @Sendable (any EventLoop, Logger) -> any Database

    /// The database for `req`.
    func callAsFunction(_ req: LatchRequest) -> any Database {
        open(req.context.eventLoop, req.logger)
    }
}

extension LatchApplication {
    /// The database of each request, as the routes open it.
    var requestDatabase: RequestDatabase {
        RequestDatabase { [self] eventLoop, logger in db(on: eventLoop, logger: logger) }
    }
}
