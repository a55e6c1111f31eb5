/// The limits of one kind of request: one bucket per client (IPv4 address or IPv6 /64) and one
/// shared by all clients, both kept in memory by each latchd instance.
public struct RateLimitRule: Sendable, Equatable {
    public var perClient: TokenRate
    public var global: TokenRate

    public init(perClient: TokenRate, global: TokenRate) {
        self.perClient = perClient
        self.global = global
    }

    public func scaled(by factor: Double) -> RateLimitRule {
        RateLimitRule(perClient: perClient.scaled(by: factor), global: global.scaled(by: factor))
    }
}
