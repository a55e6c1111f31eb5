import Vapor

extension Application {
    private struct LatchKey: StorageKey { typealias Value = LatchServices }

    /// Latch's services; set by `configure(_:_:)`.
    public var latch: LatchServices {
        get {
            guard let services = storage[LatchKey.self] else {
                preconditionFailure("configure(_:_:) sets app.latch before any route runs")
            }
            return services
        }
        set { storage[LatchKey.self] = newValue }
    }
}

extension Request {
    /// Latch's services.
    public var latch: LatchServices { application.latch }
}
