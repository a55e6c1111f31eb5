import Foundation
import Testing

@testable import LatchClient

/// Fakes a responder's receiving end: records the inputs a `VerificationResponder` was given.
final class InputLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [VerificationInput] = []
    var inputs: [VerificationInput] { lock.withLock { stored } }
    func append(_ input: VerificationInput) { lock.withLock { stored.append(input) } }
}
