#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port nobody listens on now (the kernel's choice for port 0), for tests that start a
/// server process on a port of their choosing.
public enum FreePort {
    public struct Unavailable: Error {}

    public static func pick() throws -> Int {
        #if os(Linux)
            let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Unavailable() }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0 else { throw Unavailable() }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { throw Unavailable() }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
