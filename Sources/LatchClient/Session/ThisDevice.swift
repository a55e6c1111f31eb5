import Foundation
import LatchCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the SDK says about the device it runs on when the app says nothing else.
enum ThisDevice {
    /// `given` completed: the installation id, the hardware model, the platform, and (outside iOS,
    /// where the device name needs an entitlement) the host name.
    static func info(completing given: DeviceInfo?, installationID: String) -> DeviceInfo {
        var info = given ?? DeviceInfo()
        if info.id == nil { info.id = installationID }
        if info.name == nil { info.name = name }
        if info.model == nil { info.model = model }
        if info.platform == nil { info.platform = platform }
        return info
    }

    static var platform: String {
        #if os(iOS)
            "iOS"
        #elseif os(macOS)
            "macOS"
        #elseif os(visionOS)
            "visionOS"
        #elseif os(watchOS)
            "watchOS"
        #elseif os(tvOS)
            "tvOS"
        #elseif os(Linux)
            "Linux"
        #elseif os(Windows)
            "Windows"
        #else
            "unknown"
        #endif
    }

    static var name: String? {
        #if os(macOS) || os(Linux)
            let host = ProcessInfo.processInfo.hostName
            return host.isEmpty ? nil : host
        #else
            return nil
        #endif
    }

    /// The hardware model from `uname` ("iPhone16,1" on an iPhone, "x86_64" on a PC).
    static var model: String? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            var system = utsname()
            guard uname(&system) == 0 else { return nil }
            let machine = withUnsafeBytes(of: &system.machine) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return machine.isEmpty ? nil : machine
        #else
            return nil
        #endif
    }
}
