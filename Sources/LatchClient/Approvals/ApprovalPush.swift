import Foundation
import LatchCore

/// The custom data of an approval push (issue 43 §2): `{"latch": {"kind": "verification",
/// "verification_id": "…"}}`. The push names only the kind of action; the app fetches the rest once unlocked.
///
///     // application(_:didReceiveRemoteNotification:) or UNUserNotificationCenter's response
///     if let push = ApprovalPush(userInfo: notification.request.content.userInfo) {
///         let details = try await client.phoneVerification(id: push.verificationID)
///     }
public struct ApprovalPush: Sendable, Equatable {
    /// The verification the phone is asked to approve.
    public let verificationID: String

    public init(verificationID: String) {
        self.verificationID = verificationID
    }

    /// Reads a notification's `userInfo`; nil when it is not a Latch approval push.
    public init?(userInfo: [AnyHashable: Any]) {
        guard let latch = userInfo["latch"] as? [String: Any], latch["kind"] as? String == "verification",
            let id = latch["verification_id"] as? String, Self.isPlausibleID(id)
        else { return nil }
        verificationID = id
    }

    /// Reads the push's JSON payload (the whole `aps` document, or only the custom data); nil when it is not
    /// a Latch approval push.
    public init?(payload: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else { return nil }
        self.init(userInfo: object)
    }

    /// An id short enough and without characters that could change the path it is put into.
    private static func isPlausibleID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 100 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}

/// The APNs device token as latchd takes it: lowercase hex of its bytes.
public enum PushDeviceToken {
    /// `deviceToken` (from `didRegisterForRemoteNotificationsWithDeviceToken`) as lowercase hex.
    public static func hex(_ deviceToken: Data) -> String { Hex.lowercase(deviceToken) }
}
