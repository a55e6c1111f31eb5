import Foundation
import LatchCore

/// What the user did on the approval screen.
public enum ApprovalInput: Sendable, Equatable {
    case pickedNumber(String)
    case tappedDeny
    case tappedNotMe
    case tappedClose
}

/// Everything `ApprovalDriver` needs from the outside world: the server, the verification page, the
/// screen, and time. `LatchApprovalEnvironment` is the SDK's; the CLI and tests have their own.
public protocol ApprovalDriverEnvironment: Sendable {
    /// Fetches what asks. Throw any error; it is read as an ``ApprovalCallFailure``.
    func load(_ subject: ApprovalSubject) async throws -> ApprovalDetails
    /// Runs the verification page for `context` (`approve_sign_in`, bound to the approval id).
    func verifySignIn(_ context: VerificationContext) async -> ApprovalVerificationOutcome
    /// Runs the verification page over the pushed verification, every attempt with `number`.
    func verifyOnPhone(_ details: PhoneVerificationDetails, number: String) async -> ApprovalVerificationOutcome
    /// `POST /v1/approvals/{id}/decision` approving.
    func approveSignIn(_ link: ApprovalLink, number: String, verificationToken: String) async throws
    /// Denies the subject.
    func deny(_ subject: ApprovalSubject) async throws
    /// `POST /v1/me/freeze`.
    func freezeAccount() async throws
    /// Shows `screen`; the screen reports what the user does through `respond`.
    func present(_ screen: ApprovalScreen, respond: @escaping @Sendable (ApprovalInput) -> Void) async
    /// Waits until `date` (a test clock may return at once); throws when cancelled.
    func sleep(until date: Date) async throws
    /// The language of call failures' lines.
    var language: LatchLanguage { get }
}

/// The SDK's approval environment: a signed-in `LatchClient`, the sensor and device key for the
/// verification page, its presenter, and the approval screen's presenter.
///
///     let environment = LatchApprovalEnvironment(
///         client: client, authenticator: LocalAuthenticationAuthenticator(), keys: keys,
///         verificationPresenter: sheet, language: .zhHans) { screen, respond in await model.show(screen, respond) }
public struct LatchApprovalEnvironment<Presenter: VerificationPresenter>: ApprovalDriverEnvironment {
    public let client: LatchClient
    public let authenticator: any BiometricAuthenticator
    public let keys: any DeviceKeyStore
    public let verificationPresenter: Presenter
    public let language: LatchLanguage
    let show: @Sendable (ApprovalScreen, @escaping @Sendable (ApprovalInput) -> Void) async -> Void

    public init(
        client: LatchClient, authenticator: any BiometricAuthenticator, keys: any DeviceKeyStore,
        verificationPresenter: Presenter, language: LatchLanguage,
        show: @escaping @Sendable (ApprovalScreen, @escaping @Sendable (ApprovalInput) -> Void) async -> Void
    ) {
        self.client = client
        self.authenticator = authenticator
        self.keys = keys
        self.verificationPresenter = verificationPresenter
        self.language = language
        self.show = show
    }

    public func load(_ subject: ApprovalSubject) async throws -> ApprovalDetails {
        switch subject {
        case .signIn(let link): .signIn(try await client.signInApproval(link))
        case .verification(let id): .verification(try await client.phoneVerification(id: id))
        }
    }

    public func verifySignIn(_ context: VerificationContext) async -> ApprovalVerificationOutcome {
        await client.verifySignInApproval(
            context, authenticator: authenticator, keys: keys, presenter: verificationPresenter, language: language)
    }

    public func verifyOnPhone(_ details: PhoneVerificationDetails, number: String) async
        -> ApprovalVerificationOutcome
    {
        await client.approveOnPhone(
            details, number: number, authenticator: authenticator, keys: keys, presenter: verificationPresenter,
            language: language)
    }

    public func approveSignIn(_ link: ApprovalLink, number: String, verificationToken: String) async throws {
        try await client.approveSignIn(link, number: number, verificationToken: verificationToken)
    }

    public func deny(_ subject: ApprovalSubject) async throws {
        switch subject {
        case .signIn(let link): try await client.denySignIn(link)
        case .verification(let id): try await client.denyPhoneVerification(id: id)
        }
    }

    public func freezeAccount() async throws {
        try await client.freezeAccount()
    }

    public func present(_ screen: ApprovalScreen, respond: @escaping @Sendable (ApprovalInput) -> Void) async {
        await show(screen, respond)
    }

    public func sleep(until date: Date) async throws {
        let seconds = date.timeIntervalSince(client.clock())
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }
}
