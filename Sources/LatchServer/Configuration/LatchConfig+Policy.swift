import Foundation

extension LatchConfig {
    /// Reads issue 30's verification policy from the JSON file `LATCH_POLICY_FILE` names (none: one
    /// factor of any kind for every action, as before). A file that cannot be read or run stops latchd
    /// with one line naming the file, the key and what is wrong.
    mutating func readPolicy(_ value: (String) -> String?) throws {
        guard let path = value("LATCH_POLICY_FILE") else { return }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("LATCH_POLICY_FILE", "\(path): cannot be read")
        }
        do {
            verificationPolicy = try VerificationPolicy(json: data)
            policyFile = path
        } catch {
            throw ConfigurationError("LATCH_POLICY_FILE", "\(path): \(error.description)")
        }
    }
}
