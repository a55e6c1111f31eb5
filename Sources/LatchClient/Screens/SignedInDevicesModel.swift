#if canImport(Observation)
    import Foundation
    import LatchCore
    import Observation

    /// The signed-in devices screen (seed 004 §6.2 多设备管理, C8) as a tested model: the list with this
    /// device first and marked "(当前设备)" / "(This Device)", each with "最后活动: …" / "Last active: …",
    /// then "退出其他设备" / "Sign Out Other Devices" and "退出" / "Sign Out" on each other device, each asked once more
    /// before it runs. `SignedInDevicesView` only renders it.
    ///
    ///     @State private var model = SignedInDevicesModel(service: client, language: .zhHans)
    ///     var body: some View { SignedInDevicesView(model: model).task { await model.load() } }
    @MainActor
    @Observable
    public final class SignedInDevicesModel {
        /// A sign-out waiting for the user's yes.
        public enum PendingSignOut: Sendable, Equatable {
            /// "退出其他设备" / "Sign Out Other Devices".
            case otherDevices
            /// "退出" / "Sign Out" on one row.
            case device(SignedInDeviceRow)
        }

        /// The sessions as the server listed them (after local removals).
        public private(set) var sessions: [SessionInfo] = []
        /// Whether the list has been loaded once.
        public private(set) var isLoaded = false
        /// A request is running.
        public private(set) var isBusy = false
        /// The last failure; cleared by the next request.
        public private(set) var failure: ScreenFailure?
        /// A passing note ("已退出其他设备" / "Other devices are signed out.").
        public private(set) var notice: String?
        /// The sign-out the confirmation asks about.
        public private(set) var pendingSignOut: PendingSignOut?
        /// The time "最后活动" / "Last active" is measured at; ``tick()`` moves it on.
        public private(set) var now: Date

        /// The texts in the screen's language.
        public let strings: SignedInDevicesStrings

        @ObservationIgnored private let service: any SignedInDevicesService
        @ObservationIgnored private let clock: @MainActor () -> Date

        public init(
            service: any SignedInDevicesService, language: LatchLanguage,
            now clock: @escaping @MainActor () -> Date = { Date() }
        ) {
            self.service = service
            self.strings = SignedInDevicesStrings(language)
            self.clock = clock
            self.now = clock()
        }

        /// Reads the clock again ("刚刚" / "just now" becomes "1 分钟前" / "1 minute ago").
        public func tick() {
            now = clock()
        }

        // MARK: What shows

        /// The list: this device first, then the others by last activity, newest first.
        public var rows: [SignedInDeviceRow] {
            sessions
                .sorted { lhs, rhs in
                    if lhs.current != rhs.current { return lhs.current }
                    return lhs.lastActiveAt > rhs.lastActiveAt
                }
                .map { SignedInDeviceRow($0, now: now, strings: strings) }
        }

        /// Whether another device is signed in.
        public var hasOtherDevices: Bool { sessions.contains { !$0.current } }

        /// "退出其他设备" / "Sign Out Other Devices" works: another device is signed in and nothing runs.
        public var canSignOutOthers: Bool { hasOtherDevices && !isBusy }

        /// Whether the confirmation shows; setting `false` (the dialog dismissed) is "取消" / "Cancel".
        public var isConfirmingSignOut: Bool {
            get { pendingSignOut != nil }
            set { if !newValue { cancelSignOut() } }
        }

        /// The confirmation's question.
        public var confirmationMessage: String? {
            switch pendingSignOut {
            case .otherDevices: strings.confirmSignOutOthers
            case .device(let row): strings.confirmSignOut(row.name)
            case nil: nil
            }
        }

        // MARK: Events

        /// Loads (or reloads) the list.
        public func load() async {
            await perform {
                let sessions = try await self.service.sessions()
                self.sessions = sessions
                self.isLoaded = true
            }
        }

        /// "退出其他设备" / "Sign Out Other Devices": asks first.
        public func askToSignOutOthers() {
            guard canSignOutOthers else { return }
            pendingSignOut = .otherDevices
        }

        /// "退出" / "Sign Out" on a row: asks first. This device's own row has no "退出" / "Sign Out".
        public func askToSignOut(_ row: SignedInDeviceRow) {
            guard row.canSignOut, !isBusy else { return }
            pendingSignOut = .device(row)
        }

        /// "取消" / "Cancel" in the confirmation.
        public func cancelSignOut() {
            pendingSignOut = nil
        }

        /// The confirmation's yes: the sign-out runs, and the list shows what is left.
        public func confirmSignOut() async {
            guard let pending = pendingSignOut, !isBusy else { return }
            pendingSignOut = nil
            switch pending {
            case .otherDevices:
                await perform {
                    try await self.service.revokeOtherSessions()
                    self.sessions.removeAll { !$0.current }
                    self.notice = self.strings.signedOutOthers
                }
            case .device(let row):
                await perform {
                    try await self.service.revokeSession(id: row.id)
                    self.sessions.removeAll { $0.id == row.id }
                    self.notice = self.strings.signedOut(row.name)
                }
            }
        }

        private func perform(_ work: @MainActor () async throws -> Void) async {
            isBusy = true
            failure = nil
            notice = nil
            tick()
            do {
                try await work()
            } catch {
                failure = ScreenFailure(error, language: strings.language)
            }
            isBusy = false
        }
    }
#endif
