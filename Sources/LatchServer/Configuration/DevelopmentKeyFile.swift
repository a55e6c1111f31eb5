import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The development secret key: 32 random bytes in base64 in a `0600` file, created on first start.
/// The file is created with mode 0600 (never readable by others, not even for a moment), and a key
/// file found with a looser mode is tightened to 0600.
struct DevelopmentKeyFile {
    let path: String

    func loadOrCreate() throws -> Data {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            guard let key = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), key.count == 32
            else {
                throw ConfigurationError("LATCH_SECRET_KEY", "the key file \(path) is not 32 bytes in base64")
            }
            guard chmod(path, 0o600) == 0 else {
                throw ConfigurationError(
                    "LATCH_SECRET_KEY", "cannot make the key file \(path) readable by latchd's user only")
            }
            return key
        }
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let bytes = Array((key.base64EncodedString() + "\n").utf8)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else { throw ConfigurationError("LATCH_SECRET_KEY", "cannot write the key file \(path)") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else {
            throw ConfigurationError("LATCH_SECRET_KEY", "cannot write the key file \(path)")
        }
        return key
    }
}
