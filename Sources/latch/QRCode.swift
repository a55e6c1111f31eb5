import Foundation

/// A terminal QR code by `qrencode`, when it is installed.
enum QRCode {
    static func print(_ text: String) {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let qrencode = paths.map({ "\($0)/qrencode" }).first(where: FileManager.default.isExecutableFile(atPath:))
        else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: qrencode)
        process.arguments = ["-t", "ANSIUTF8", text]
        try? process.run()
        process.waitUntilExit()
    }
}
