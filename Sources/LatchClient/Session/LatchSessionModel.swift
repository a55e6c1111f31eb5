#if canImport(Observation)
    import LatchCore
    import Foundation
    import Observation

    /// The session state for SwiftUI: an `@Observable` mirror of ``LatchClient/state`` on the main actor.
    ///
    ///     @State private var session = LatchSessionModel(client: client)
    ///
    ///     var body: some View {
    ///         switch session.state {
    ///         case .signedIn(let user): HomeView(user: user)
    ///         case .signedOut, .expired: SignInView(sessionExpired: session.state == .expired)
    ///         }
    ///     }
    @MainActor
    @Observable
    public final class LatchSessionModel {
        /// The session state, updated on the main actor as the client announces changes.
        public private(set) var state: SessionState

        /// The signed-in user, if any.
        public var user: UserInfo? { state.user }

        /// Whether a user is signed in.
        public var isSignedIn: Bool { state.isSignedIn }

        @ObservationIgnored private let subscription = Subscription()

        /// Mirrors `client`'s state from now on (starting with its current state).
        public init(client: LatchClient) {
            state = client.currentState
            let stream = client.state
            subscription.start(
                Task { [weak self] in
                    for await state in stream {
                        guard let self else { return }
                        self.state = state
                    }
                })
        }

        /// Ends the mirroring task when the model goes away (a `Sendable` holder, so the model's
        /// nonisolated deinit may release it).
        // @unchecked Sendable: `task` is written once under `lock`; deinit runs when no one else holds it.
        private final class Subscription: @unchecked Sendable {
            private let lock = NSLock()
            private var task: Task<Void, Never>?

            func start(_ task: Task<Void, Never>) {
                lock.withLock { self.task = task }
            }

            deinit {
                task?.cancel()
            }
        }
    }
#endif
