#if canImport(UIKit) && (os(iOS) || os(visionOS))
    import Foundation
    import UIKit

    /// Approval pushes on iOS (issue 43 §2), call for call: asks UIKit for a device token and hands it to
    /// the SDK. Thin on purpose: the hex form, which key it belongs to and what a push means are decided by
    /// tested code (`PushDeviceToken`, `LatchClient.registerPushTokenForThisDevice`, `ApprovalPush`). Not
    /// compiled on Linux.
    ///
    ///     // AppDelegate
    ///     func application(_ app: UIApplication, didFinishLaunchingWithOptions …) -> Bool {
    ///         RemoteNotificationAdapter.register(); return true
    ///     }
    ///     func application(_ app: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
    ///         Task { try await RemoteNotificationAdapter.didRegister(deviceToken: token, client: client) }
    ///     }
    ///     // UNUserNotificationCenterDelegate: open the approval screen for the pushed verification
    ///     if let push = RemoteNotificationAdapter.approval(in: response.notification.request.content.userInfo) { … }
    @MainActor
    public enum RemoteNotificationAdapter {
        /// `UIApplication.shared.registerForRemoteNotifications()`; UIKit answers through the app delegate.
        public static func register() {
            UIApplication.shared.registerForRemoteNotifications()
        }

        /// Sends the token UIKit gave (`didRegisterForRemoteNotificationsWithDeviceToken`) to latchd for this
        /// phone's device key; `false` when no key is bound here yet. `environment`: `.development` for a
        /// debug build signed with the development APNs entitlement.
        @discardableResult
        public static func didRegister(
            deviceToken: Data, client: LatchClient, environment: PushTokenRegistration.Environment = .production
        ) async throws -> Bool {
            try await client.registerPushTokenForThisDevice(deviceToken, environment: environment)
        }

        /// The approval a notification's `userInfo` asks for, if it is Latch's.
        public static func approval(in userInfo: [AnyHashable: Any]) -> ApprovalPush? {
            ApprovalPush(userInfo: userInfo)
        }
    }
#endif
