#if canImport(SwiftUI)
    import SwiftUI

    extension View {
        /// Marks a field as the account's password for AutoFill (iOS; elsewhere nothing).
        @ViewBuilder func passwordContent() -> some View {
            #if os(iOS)
                textContentType(.password)
            #else
                self
            #endif
        }

        /// Marks a field as a new password, so iOS suggests a strong one (elsewhere nothing).
        @ViewBuilder func newPasswordContent() -> some View {
            #if os(iOS)
                textContentType(.newPassword)
            #else
                self
            #endif
        }
    }
#endif
