import Foundation

/// A yes/no fact about this device kept in the vault as the presence of one item (the Face ID permission
/// seen granted, the biometric offer answered).
struct VaultFlag: Sendable {
    let key: String
    let vault: any TokenVault

    /// Whether the item is there.
    var isSet: Bool {
        get async {
            if case .found = await vault.read(key) { return true }
            return false
        }
    }

    /// Writes the item (`value`, for whoever reads the vault by hand).
    func set(_ value: String) async {
        try? await vault.write(Data(value.utf8), for: key)
    }
}
