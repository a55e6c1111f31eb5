// The signed-in devices screen (seed 004 §6.2 多设备管理; C8) as synchronous narratives over a fake
// server and a clock the test moves.
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import LatchTestSupport
    import Testing

    @MainActor
    @Suite("Signed-in devices screen (seed 004 §6.2, C8)")
    struct SignedInDevicesScreenTests {
        let service = FakeDevicesService()
        let clock = TestClock()

        /// The seed's three devices: iPhone 15 Pro (this one, 刚刚), iPad Pro (2 小时前), MacBook Pro (1 天前).
        func seedDevices() -> [SessionInfo] {
            [
                session("s-mac", name: "MacBook Pro", model: "Mac15,3", agoSeconds: 86_400 + 60),
                session("s-phone", name: "iPhone 15 Pro", model: "iPhone16,1", agoSeconds: 5, current: true),
                session("s-ipad", name: "iPad Pro", model: nil, agoSeconds: 2 * 3600 + 30)
            ]
        }

        func session(
            _ id: String, name: String?, model: String?, agoSeconds: TimeInterval, current: Bool = false,
            ip: String? = nil
        ) -> SessionInfo {
            SessionInfo(
                id: id, deviceName: name, deviceModel: model, platform: "ios", ip: ip,
                createdAt: clock.now.addingTimeInterval(-900_000),
                lastActiveAt: clock.now.addingTimeInterval(-agoSeconds), current: current)
        }

        func loaded(_ language: LatchLanguage = .zhHans) async -> SignedInDevicesModel {
            service.listed = seedDevices()
            let model = SignedInDevicesModel(service: service, language: language, now: clock.read)
            await model.load()
            return model
        }

        @Test("seed §6.2 the list: this device first and marked (当前设备), each with 最后活动, exactly as the seed")
        func seed_6_2_listAsTheSeedShowsIt() async {
            let model = await loaded()

            #expect(model.strings.title == "设备列表")
            #expect(model.rows.map(\.title) == ["iPhone 15 Pro (当前设备)", "iPad Pro", "MacBook Pro"])
            #expect(model.rows.map(\.lastActive) == ["最后活动: 刚刚", "最后活动: 2 小时前", "最后活动: 1 天前"])
            #expect(model.rows.map(\.canSignOut) == [false, true, true])
        }

        @Test("seed §6.2 the list in English")
        func seed_6_2_listInEnglish() async {
            let model = await loaded(.en)

            #expect(model.rows.map(\.title) == ["iPhone 15 Pro (This Device)", "iPad Pro", "MacBook Pro"])
            #expect(
                model.rows.map(\.lastActive) == [
                    "Last active: just now", "Last active: 2 hours ago", "Last active: 1 day ago"
                ])
            #expect(model.strings.signOutOthers == "Sign Out Other Devices")
        }

        @Test("seed §6.2 最后活动 moves on with the clock: 刚刚, then minutes, hours, days")
        func seed_6_2_lastActiveMovesWithTheClock() async {
            let model = await loaded()

            clock.advance(by: 60)
            model.tick()
            #expect(model.rows[0].lastActive == "最后活动: 1 分钟前")

            clock.advance(by: 3600)
            model.tick()
            #expect(model.rows[0].lastActive == "最后活动: 1 小时前")

            clock.advance(by: 86_400)
            model.tick()
            #expect(model.rows[0].lastActive == "最后活动: 1 天前")
            #expect(model.rows[2].lastActive == "最后活动: 2 天前")
        }

        @Test("C8 a device without a name shows its model, and one without either 未知设备")
        func C8_namelessDevices() async {
            service.listed = [
                session("a", name: nil, model: "iPhone16,1", agoSeconds: 0, current: true, ip: "203.0.113.7"),
                session("b", name: " ", model: nil, agoSeconds: 0).withPlatform(nil)
            ]
            let model = SignedInDevicesModel(service: service, language: .zhHans, now: clock.read)

            await model.load()

            #expect(model.rows.map(\.name) == ["iPhone16,1", "未知设备"])
            #expect(model.rows[0].detail == "203.0.113.7")
        }

        @Test("seed §6.2 退出其他设备 asks first, then leaves only this device")
        func seed_6_2_signOutOthers() async {
            let model = await loaded()
            #expect(model.canSignOutOthers)
            // The seed's button, word for word (issue 28 §3).
            #expect(model.strings.signOutOthers == "退出其他设备")

            model.askToSignOutOthers()
            #expect(model.confirmationMessage == "确定退出其他所有设备吗？这些设备需要重新登录。")
            #expect(service.calls == ["list"])

            await model.confirmSignOut()

            #expect(service.calls == ["list", "revoke others"])
            #expect(model.rows.map(\.title) == ["iPhone 15 Pro (当前设备)"])
            #expect(model.notice == "已退出其他设备")
            #expect(!model.canSignOutOthers)
        }

        @Test("seed §6.2 退出单个设备 signs out that one device only")
        func seed_6_2_signOutOne() async {
            let model = await loaded()
            let ipad = model.rows[1]
            // The seed's action, word for word (issue 28 §3); each other device's row carries it as "退出".
            #expect(model.strings.signOutOne == "退出单个设备")
            #expect(model.strings.signOutRow == "退出")
            #expect(model.strings.signOutRowLabel(ipad.name) == "退出iPad Pro")

            model.askToSignOut(ipad)
            #expect(model.confirmationMessage == "确定退出iPad Pro吗？")
            await model.confirmSignOut()

            #expect(service.calls.last == "revoke s-ipad")
            #expect(model.rows.map(\.name) == ["iPhone 15 Pro", "MacBook Pro"])
            #expect(model.notice == "已退出iPad Pro")
        }

        @Test("C8 this device's own row cannot be signed out from the list")
        func C8_currentRowHasNoSignOut() async {
            let model = await loaded()

            model.askToSignOut(model.rows[0])

            #expect(model.pendingSignOut == nil)
        }

        @Test("C8 取消 in the confirmation changes nothing")
        func C8_cancelConfirmation() async {
            let model = await loaded()
            model.askToSignOutOthers()

            model.cancelSignOut()
            await model.confirmSignOut()

            #expect(service.calls == ["list"])
            #expect(model.rows.count == 3)
        }

        @Test("C8 a dismissed confirmation dialog is 取消")
        func C8_dismissedDialogCancels() async {
            let model = await loaded()
            model.askToSignOutOthers()
            #expect(model.isConfirmingSignOut)

            model.isConfirmingSignOut = false

            #expect(model.pendingSignOut == nil)
            #expect(model.strings.cancel == "取消")
        }

        @Test("C11 a failed sign-out keeps the list and shows the server's message")
        func C11_failedSignOutKeepsList() async {
            let model = await loaded()
            service.failure = ScreenErrors.server(.sessionExpired, status: 401, message: "登录已过期")
            model.askToSignOutOthers()

            await model.confirmSignOut()

            #expect(model.failure?.message == "登录已过期")
            #expect(model.rows.count == 3)
        }

        @Test("C11 a failed load in English suggests a retry")
        func C11_failedLoadInEnglish() async {
            service.failure = ScreenErrors.offline
            let model = SignedInDevicesModel(service: service, language: .en, now: clock.read)

            await model.load()

            #expect(model.failure?.message == "The network connection failed. Please try again.")
            #expect(!model.isLoaded)
        }
    }

    extension SessionInfo {
        fileprivate func withPlatform(_ platform: String?) -> SessionInfo {
            var copy = self
            copy.platform = platform
            return copy
        }
    }
#endif
