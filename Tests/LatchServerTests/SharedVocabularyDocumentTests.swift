import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 14 §2: the enums of the shared vocabulary and the OpenAPI document name the same values.
@Suite("Issue 14 shared vocabulary in openapi.json")
struct SharedVocabularyDocumentTests {
    @Test("test_I14 every verification method is in the document's enums, and every security-event kind in its list")
    func test_I14_documentNamesTheVocabulary() async throws {
        try await withServer(.sqlite) { server in
            let document = try await server.send(.GET, "/openapi.json").json
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            func enumValues(_ schema: String, _ property: String) -> Set<String> {
                let properties = (schemas[schema] as? [String: Any])?["properties"] as? [String: Any]
                return Set(((properties?[property] as? [String: Any])?["enum"] as? [String]) ?? [])
            }
            let methods = Set(VerificationMethodKind.allCases.map(\.rawValue))
            #expect(enumValues("VerificationMethodOffer", "type") == methods)
            #expect(enumValues("VerificationStarted", "preferred") == methods)
            #expect(enumValues("RedeemedVerification", "method") == methods)

            let eventProperties = (schemas["SecurityEvent"] as? [String: Any])?["properties"] as? [String: Any]
            let eventText = try #require((eventProperties?["type"] as? [String: Any])?["description"] as? String)
            let undocumented = SecurityEventKind.allCases.map(\.rawValue).filter { !eventText.contains("`\($0)`") }
            #expect(undocumented.isEmpty, "security-event kinds missing from the document: \(undocumented)")
        }
    }
}
