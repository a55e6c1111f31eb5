import Foundation
import LatchAttestSimulator
import LatchClient
import LatchCore

/// What every command works with, made from the global options: the client of the server (its
/// vault in the home directory, its messages in the chosen language), the device key, the terminal.
struct CLIContext: Sendable {
    let serverURL: URL
    let language: LatchLanguage
    let home: URL
    let vault: FileVault
    let client: LatchClient
    let keys: SoftwareDeviceKeyStore
    /// The software passkeys of this home (vault item `passkeys`, a `0600` file). Their client data
    /// names `LATCH_PASSKEY_ORIGIN` when set, else the origin a development latchd accepts.
    let passkeys: SoftwarePasskeyAuthenticator
    let terminal: Terminal
    let text: CLIText

    init(_ options: GlobalOptions) {
        // validate() refused anything that is not an http(s) URL.
        serverURL = options.serverURL ?? URL(string: "http://127.0.0.1:8080")!
        language = options.language
        home = options.homeDirectory
        vault = FileVault(directory: home)
        // Sessions are bound to a software DPoP key kept in the home (vault item `dpop-key`, a `0600` file; issue 31).
        // With LATCH_APP_ATTEST_SIMULATED_APP_ID, device key binds are attested by the simulated attester
        // (its CA and keys kept in the home; `latch app-attest root-ca` prints the root latchd must trust).
        let attester = Self.simulatedAttester(vault: vault)
        client = LatchClient(
            serverURL: serverURL, vault: vault, acceptLanguage: language.rawValue,
            dpopKeys: SoftwareDPoPKeyStore(vault: vault), appAttester: attester.map { $0.attester },
            app: attester.map { $0.app })
        keys = SoftwareDeviceKeyStore(vault: vault)
        let server = serverURL
        let origin = ProcessInfo.processInfo.environment["LATCH_PASSKEY_ORIGIN"].flatMap { $0.isEmpty ? nil : $0 }
        passkeys = SoftwarePasskeyAuthenticator(
            vault: vault,
            origin: { rpID in origin ?? SoftwarePasskeyAuthenticator.origin(forRPID: rpID, serverURL: server) })
        terminal = .standard
        text = CLIText(language: language, server: serverURL.absoluteString)
    }

    /// The variable naming the simulated app (`TEAMID.bundle.id`) whose App Attest the CLI simulates.
    static let simulatedAppIDVariable = "LATCH_APP_ATTEST_SIMULATED_APP_ID"

    /// The simulated App Attest attester of this home, and the app it attests, when
    /// `LATCH_APP_ATTEST_SIMULATED_APP_ID` names one (issue 31 §3).
    static func simulatedAttester(vault: FileVault) -> (attester: SimulatedAppAttester, app: AppIdentity)? {
        guard let appID = ProcessInfo.processInfo.environment[simulatedAppIDVariable], !appID.isEmpty else {
            return nil
        }
        let bundleID = appID.split(separator: ".", maxSplits: 1).last.map(String.init) ?? appID
        return (
            SimulatedAppAttester(appID: appID, vault: vault),
            AppIdentity(bundleId: bundleID)
        )
    }

    /// The signed-in user of the stored session; a failure when there is none.
    @discardableResult
    func requireSession() async throws -> UserInfo {
        switch await client.restoreSession() {
        case .signedIn(let user): return user
        case .signedOut: throw CLIFailure.failed(text.notSignedIn)
        case .expired: throw CLIFailure.failed(LatchErrorCode.sessionExpired.message(in: language))
        case .vaultUnavailable: throw CLIFailure.failed(text.vaultUnavailable(home.path))
        }
    }

    /// Runs `work` (network calls) with a spinner labelled `label`; any error becomes one line.
    func call<T>(_ label: String, _ work: () async throws -> T) async throws -> T {
        do {
            return try await Progress(terminal: terminal).run(label, work)
        } catch {
            throw failure(for: error)
        }
    }

    /// The one line, in the chosen language, that says what went wrong.
    func failure(for error: any Error) -> CLIFailure {
        switch error {
        case let failure as CLIFailure:
            return failure
        case let error as LatchClientError:
            return .failed(describe(error))
        case let error as PasskeyError:
            return .failed(describe(error))
        case is VaultError:
            return .failed(text.vaultUnavailable(home.path))
        default:
            return .failed(text.unexpectedError(String(describing: error)))
        }
    }

    func describe(_ error: PasskeyError) -> String {
        switch error {
        case .verificationRequired:
            return LatchErrorCode.verificationRequired.message(in: language)
        case .lastWayIn(let message):
            return message
        case .alreadyRegistered:
            return text.passkeyAlreadyRegistered
        case .limitReached:
            return text.passkeyLimitReached
        case .notFound:
            return text.passkeyNotFound
        case .rejected(let reasons, let message):
            return text.passkeyRefused(message, reasons: reasons)
        case .authenticator(.noCredential):
            return text.noPasskeyOnDevice
        case .authenticator(let failure):
            return text.unexpectedError(String(describing: failure))
        case .client(let error):
            return describe(error)
        }
    }

    func describe(_ error: LatchClientError) -> String {
        switch error {
        case .server(let server) where server.code == .accountDisabled:
            return text.accountDisabled
        case .server(let server):
            var line = server.message
            if server.code == .locked, let until = server.lockedUntil {
                line += text.lockedUntil(until)
            }
            if let field = server.field {
                line += " (\(field)\(server.reasons.map { ": " + $0.joined(separator: ", ") } ?? ""))"
            }
            return line
        case .network:
            return text.serverUnreachable
        case .notSignedIn:
            return text.notSignedIn
        case .unexpected(let status):
            return text.unexpectedAnswer(status)
        case .vaultUnavailable:
            return text.vaultUnavailable(home.path)
        case .signInVerificationRequired:
            return LatchErrorCode.verificationRequired.message(in: language)
        case .accountFrozen(let server):
            return text.accountFrozen(server.message)
        }
    }
}
