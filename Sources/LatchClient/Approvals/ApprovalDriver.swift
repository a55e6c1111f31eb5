import Foundation
import LatchCore

/// Runs an ``ApprovalFlow`` against the world: for every callback `let action = flow.event(…)`, then runs
/// that action. Only the driver touches the server, the verification page and the screen (through its
/// environment), and it stops the expiry timer and any running work when the flow finishes.
///
///     let driver = ApprovalDriver(flow: ApprovalFlow(subject: .signIn(link), language: .zhHans),
///                                 environment: environment)
///     switch await driver.run() { case .approved: … case .wrongNumber: … default: … }
public actor ApprovalDriver<Environment: ApprovalDriverEnvironment> {
    private enum Event: Sendable {
        case input(ApprovalInput)
        case loaded(ApprovalDetails)
        case loadFailed(ApprovalCallFailure)
        case verificationFinished(ApprovalVerificationOutcome)
        case decisionSent
        case decisionFailed(ApprovalCallFailure)
        case denialSent
        case denialFailed(ApprovalCallFailure)
        case frozen
        case freezeFailed(ApprovalCallFailure)
        case expired
    }

    private var flow: ApprovalFlow
    private let environment: Environment
    private let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private var work: [Task<Void, Never>] = []
    private var timer: Task<Void, Never>?
    private var hasRun = false

    public init(flow: ApprovalFlow, environment: Environment) {
        self.flow = flow
        self.environment = environment
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Reports what the user did. Safe from any thread; ignored after the flow ends.
    public nonisolated func send(_ input: ApprovalInput) {
        continuation.yield(.input(input))
    }

    /// Runs the flow until it ends and returns how. Call it once. Cancelling the task is "close".
    public func run() async -> ApprovalEnd {
        precondition(!hasRun, "an ApprovalDriver runs one flow, once")
        hasRun = true
        return await withTaskCancellationHandler {
            await loop()
        } onCancel: { [continuation] in
            continuation.yield(.input(.tappedClose))
        }
    }

    private func loop() async -> ApprovalEnd {
        if let end = await perform(flow.start()) { return end }
        for await event in events {
            if let end = await perform(apply(event)) { return end }
        }
        return await perform(flow.userTappedClose()) ?? .closed
    }

    private func apply(_ event: Event) -> ApprovalFlow.Action {
        switch event {
        case .input(.pickedNumber(let number)): return flow.userPickedNumber(number)
        case .input(.tappedDeny): return flow.userTappedDeny()
        case .input(.tappedNotMe): return flow.userTappedNotMe()
        case .input(.tappedClose): return flow.userTappedClose()
        case .loaded(let details):
            startTimer(until: details.expiresAt)
            return flow.loaded(details)
        case .loadFailed(let failure): return flow.loadFailed(failure)
        case .verificationFinished(let outcome): return flow.verificationFinished(outcome)
        case .decisionSent: return flow.decisionSent()
        case .decisionFailed(let failure): return flow.decisionFailed(failure)
        case .denialSent: return flow.denialSent()
        case .denialFailed(let failure): return flow.denialFailed(failure)
        case .frozen: return flow.accountFrozen()
        case .freezeFailed(let failure): return flow.freezeFailed(failure)
        case .expired: return flow.expired()
        }
    }

    /// Runs `action`; returns the end when it finishes the flow.
    private func perform(_ action: ApprovalFlow.Action) async -> ApprovalEnd? {
        let environment = environment
        let continuation = continuation
        let language = environment.language
        let respond: @Sendable (ApprovalInput) -> Void = { continuation.yield(.input($0)) }
        switch action {
        case .load(let subject, let screen):
            await environment.present(screen, respond: respond)
            spawn {
                do {
                    continuation.yield(.loaded(try await environment.load(subject)))
                } catch {
                    continuation.yield(.loadFailed(ApprovalCallFailure(error, language: language)))
                }
            }
        case .show(let screen):
            await environment.present(screen, respond: respond)
        case .verifySignIn(let context, _, let screen):
            await environment.present(screen, respond: respond)
            spawn { continuation.yield(.verificationFinished(await environment.verifySignIn(context))) }
        case .verifyOnPhone(let details, let number, let screen):
            await environment.present(screen, respond: respond)
            spawn {
                continuation.yield(.verificationFinished(await environment.verifyOnPhone(details, number: number)))
            }
        case .sendApproval(let link, let number, let token, let screen):
            await environment.present(screen, respond: respond)
            spawn {
                do {
                    try await environment.approveSignIn(link, number: number, verificationToken: token)
                    continuation.yield(.decisionSent)
                } catch {
                    continuation.yield(.decisionFailed(ApprovalCallFailure(error, language: language)))
                }
            }
        case .sendDenial(let subject, let screen):
            await environment.present(screen, respond: respond)
            spawn {
                do {
                    try await environment.deny(subject)
                    continuation.yield(.denialSent)
                } catch {
                    continuation.yield(.denialFailed(ApprovalCallFailure(error, language: language)))
                }
            }
        case .freezeAccount(let screen):
            await environment.present(screen, respond: respond)
            spawn {
                do {
                    try await environment.freezeAccount()
                    continuation.yield(.frozen)
                } catch {
                    continuation.yield(.freezeFailed(ApprovalCallFailure(error, language: language)))
                }
            }
        case .finish(let end, let screen):
            timer?.cancel()
            for task in work { task.cancel() }
            work.removeAll()
            continuation.finish()
            await environment.present(screen, respond: { _ in })
            return end
        case .none:
            break
        }
        return nil
    }

    private func startTimer(until date: Date) {
        let environment = environment
        let continuation = continuation
        timer?.cancel()
        timer = Task {
            do {
                try await environment.sleep(until: date)
            } catch {
                return // cancelled: the flow finished
            }
            continuation.yield(.expired)
        }
    }

    private func spawn(_ operation: @escaping @Sendable () async -> Void) {
        work.removeAll { $0.isCancelled }
        work.append(Task(operation: operation))
    }
}
