import Crypto
import Foundation

/// The development secret key: 32 random bytes in base64 in a `0600` file, created on first start.
struct DevelopmentKeyFile {
    let path: String

    func loadOrCreate() throws -> Data {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            guard let key = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), key.count == 32 else {
                throw ConfigurationError("LATCH_SECRET_KEY", "the key file \(path) is not 32 bytes in base64")
            }
            return key
        }
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let created = FileManager.default.createFile(
            atPath: path, contents: Data((key.base64EncodedString() + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        guard created else { throw ConfigurationError("LATCH_SECRET_KEY", "cannot write the key file \(path)") }
        return key
    }
}
