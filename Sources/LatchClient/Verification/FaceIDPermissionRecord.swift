import Foundation

/// Whether this app's Face ID permission was granted before (a Face ID prompt passed), kept in the
/// vault: the first verification with Face ID explains the permission first (A6).
struct FaceIDPermissionRecord: Sendable {
    static let key = "face-id-permission"
    let vault: any TokenVault

    var isGranted: Bool {
        get async { await VaultFlag(key: Self.key, vault: vault).isSet }
    }

    func remember() async {
        await VaultFlag(key: Self.key, vault: vault).set("granted")
    }
}
