#if canImport(SwiftUI)
    import SwiftUI

    extension View {
        /// Calls `tick` once a second while the view is on screen: the account screens' countdowns
        /// (resend, lockout) and "最后活动" / "Last active" move on. The models read their injected clock on each tick.
        @MainActor
        func tickingEverySecond(_ tick: @escaping @MainActor () -> Void) -> some View {
            task { @MainActor in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    tick()
                }
            }
        }
    }
#endif
