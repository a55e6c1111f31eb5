import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `getaddrinfo` for a receiver's host, run on NIO's shared thread pool so no event loop blocks on DNS.
/// A slow lookup still holds a pool thread until the system resolver gives up; the attempt's own
/// deadline (`ReceiverClient`) does not wait for it.
enum SystemAddressLookup {
    /// The IPv4 and IPv6 addresses of `host`, in the system's order.
    static func addresses(of host: String) async throws(ReceiverFailure) -> [IPAddress] {
        let outcome: Result<[IPAddress], ReceiverFailure>
        do {
            outcome = try await NIOThreadPool.singleton.runIfActive { lookUp(host) }
        } catch {
            throw .resolutionFailed
        }
        return try outcome.get()
    }

    private static func lookUp(_ host: String) -> Result<[IPAddress], ReceiverFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            switch status {
            case EAI_NONAME, EAI_FAIL: return .failure(.unresolvable)
            default: return .failure(.resolutionFailed)
            }
        }
        var addresses: [IPAddress] = []
        var next = list
        while let entry = next {
            next = entry.pointee.ai_next
            guard let address = entry.pointee.ai_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
                }
                addresses.append(IPAddress(bytes: bytes))
            case AF_INET6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                }
                addresses.append(IPAddress(bytes: bytes))
            default:
                continue
            }
        }
        return .success(addresses)
    }
}
