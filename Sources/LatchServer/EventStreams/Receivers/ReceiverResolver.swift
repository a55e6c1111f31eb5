/// Resolves a receiver's host once per attempt and judges every address it gets (issue 42 §3): a name
/// with any refused address is refused, so a name that resolves to a public and a private address cannot
/// reach the private one. An IP literal is not resolved. The connection then goes to one of these
/// addresses (`ReceiverResolution.pin`), never to a second lookup's, so DNS rebinding cannot reach inside.
///
///     let resolution = try await ReceiverResolver.system.resolve(url, rules: rules)
///     resolution.pin  // the address to connect to
struct ReceiverResolver: Sendable {
    /// A name's addresses; throws `ReceiverFailure.unresolvable` or `.resolutionFailed`.
    typealias Lookup = @Sendable (_ host: String) async throws(ReceiverFailure) -> [IPAddress]

    private let lookup: Lookup

    /// A resolver asking `lookup` (tests answer names themselves).
    init(lookup: @escaping Lookup) { self.lookup = lookup }

    /// The system's resolver (`getaddrinfo`, on NIO's thread pool, off the event loops).
    static let system = ReceiverResolver(lookup: SystemAddressLookup.addresses(of:))

    /// The addresses `url`'s host stands for, each allowed by `rules`.
    func resolve(_ url: ReceiverURL, rules: ReceiverAddressRules) async throws(ReceiverFailure)
        -> ReceiverResolution
    {
        if let literal = url.literalAddress {
            guard literal.isAllowed(by: rules) else { throw .refusedAddress(literal.kind) }
            return ReceiverResolution(addresses: [literal])
        }
        var addresses: [ReceiverAddress] = []
        for ip in try await lookup(url.host) {
            let address = ReceiverAddress(ip)
            if !addresses.contains(address) { addresses.append(address) }
        }
        guard !addresses.isEmpty else { throw .unresolvable }
        if let refused = addresses.first(where: { !$0.isAllowed(by: rules) }) { throw .refusedAddress(refused.kind) }
        return ReceiverResolution(addresses: addresses)
    }
}

/// A host's addresses from one resolution, all allowed, in the resolver's order (never empty).
struct ReceiverResolution: Sendable, Hashable {
    let addresses: [ReceiverAddress]

    /// The address to connect to: the first.
    var pin: ReceiverAddress { addresses[0] }

    /// `current` when it is still among the addresses (a name behind several addresses keeps its
    /// connections, whatever order the resolver gives them in), else the first.
    func pin(keeping current: ReceiverAddress?) -> ReceiverAddress {
        if let current, addresses.contains(current) { return current }
        return pin
    }
}
