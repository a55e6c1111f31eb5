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
            // The family from the entry, the bytes by their place in the C struct (see `ReceiverAddress`).
            let raw = UnsafeRawPointer(address)
            switch entry.pointee.ai_family {
            case AF_INET:
                addresses.append(IPAddress(bytes: Array(UnsafeRawBufferPointer(start: raw + 4, count: 4))))
            case AF_INET6:
                addresses.append(IPAddress(bytes: Array(UnsafeRawBufferPointer(start: raw + 8, count: 16))))
            default:
                continue
            }
        }
        return .success(addresses)
    }
}
