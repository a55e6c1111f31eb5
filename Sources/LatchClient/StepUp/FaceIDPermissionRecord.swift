import Foundation

/// Whether this app's Face ID permission was granted before (a Face ID prompt passed), kept in the
/// vault: the first verification with Face ID explains the permission first (A6).
struct FaceIDPermissionRecord: Sendable {
    static let key = "face-id-permission"
    let vault: any TokenVault

    var isGranted: Bool {
        get async {
            if case .found = await vault.read(Self.key) { return true }
            return false
        }
    }

    func remember() async {
        try? await vault.write(Data("granted".utf8), for: Self.key)
    }
}
