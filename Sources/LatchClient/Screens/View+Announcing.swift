#if canImport(SwiftUI)
    import SwiftUI
    #if canImport(Accessibility)
        import Accessibility
    #endif

    extension View {
        /// Posts `text` to VoiceOver, politely (queued after current speech), each time it changes to a
        /// new line: an account screen's failure ("账号已被锁定" / "The account is locked.") or note ("验证码已发送" / "Code sent.").
        @MainActor
        func announcing(_ text: String?) -> some View {
            onChange(of: text) { _, new in
                #if canImport(Accessibility)
                    guard let new else { return }
                    var spoken = AttributedString(new)
                    spoken.accessibilitySpeechAnnouncementPriority = .low
                    AccessibilityNotification.Announcement(spoken).post()
                #endif
            }
        }
    }
#endif
