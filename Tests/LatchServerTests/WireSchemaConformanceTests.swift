import Foundation
import LatchCore
import Testing

/// Issue 14 §6: every LatchCore wire type, encoded as the server and the SDK encode it (ISO 8601
/// dates, the types' own snake_case keys), conforms to its schema in `openapi.json`, so the document,
/// the server and the SDK cannot drift apart unnoticed. The validator is `OpenAPISchemaValidator`
/// (the subset of JSON Schema the document uses) in closed mode: a member the schema does not
/// declare fails too.
@Suite("LatchCore wire types against openapi.json (issue 14 §6)")
struct WireSchemaConformanceTests {
    /// One realistic value of a wire type and the schema (`components.schemas.NAME`) it must meet.
    struct Sample: CustomTestStringConvertible, Sendable {
        let schema: String
        let label: String
        let value: any Encodable & Sendable

        init(_ schema: String, _ label: String, _ value: any Encodable & Sendable) {
            self.schema = schema
            self.label = label
            self.value = value
        }

        init(_ schema: String, _ value: any Encodable & Sendable) { self.init(schema, "", value) }

        var testDescription: String { "\(type(of: value)) → \(schema)\(label.isEmpty ? "" : " (\(label))")" }
        var typeName: String { String(describing: type(of: value)) }
    }

    static let documentURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LatchServer/OpenAPI/openapi.json")

    static func validator() throws -> OpenAPISchemaValidator {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: documentURL)) as? [String: Any]
        return OpenAPISchemaValidator(document: try #require(document))
    }

    static func encoded(_ value: any Encodable) throws -> Any {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JSONSerialization.jsonObject(with: encoder.encode(value), options: [.fragmentsAllowed])
    }

    @Test(
        "test_I14 each wire type sample encodes to JSON that its openapi.json schema accepts",
        arguments: WireSamples.all)
    func test_I14_wireTypeSampleConformsToItsSchema(sample: Sample) throws {
        let validator = try Self.validator()
        let schema = try #require(validator.schema(named: sample.schema), "openapi.json has no schema \(sample.schema)")
        let json = try Self.encoded(sample.value)
        let problems = validator.problems(json, against: schema)
        #expect(
            problems.isEmpty,
            "\(sample.testDescription): \(OpenAPISchemaValidator.describe(json))\n\(problems.joined(separator: "\n"))")
    }

    /// The wire types: every `public struct NAME: Codable` in LatchCore's API and WebAuthn JSON files.
    /// Nested types are checked through their parent; `CollectedClientData` travels base64url-encoded
    /// inside `clientDataJSON`, never as a JSON member of the API.
    static let coveredThroughParent: Set<String> = [
        "KnownDevice", "Factors", "RelyingParty", "User", "Parameter", "AuthenticatorSelection", "Response"
    ]
    static let notOnTheWire: Set<String> = ["CollectedClientData"]

    @Test(
        "test_I14 every public Codable type of LatchCore's API has a sample (a new wire type fails until it gets one)")
    func test_I14_everyWireTypeHasASample() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/LatchCore")
        let expression = try NSRegularExpression(pattern: #"public struct (\w+): Codable"#)
        var declared: Set<String> = []
        for folder in ["API", "WebAuthn"] {
            let directory = sources.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    declared.insert(String(text[Range(match.range(at: 1), in: text)!]))
                }
            }
        }
        #expect(declared.count > 40, "found the wire types: \(declared.sorted())")
        let sampled = Set(WireSamples.all.map(\.typeName))
        let missing = declared.subtracting(sampled).subtracting(Self.coveredThroughParent).subtracting(
            Self.notOnTheWire)
        #expect(missing.isEmpty, "wire types without a sample in WireSamples: \(missing.sorted())")
    }

    @Test(
        "test_I14 the validator refuses a sample that breaks its schema (wrong type, missing member, undeclared member, bad format)"
    )
    func test_I14_validatorRefusesWrongSamples() throws {
        let validator = try Self.validator()
        let tokenResponse = try #require(validator.schema(named: "TokenResponse"))
        var good = try #require(try Self.encoded(WireSamples.tokenResponse) as? [String: Any])
        #expect(validator.problems(good, against: tokenResponse).isEmpty)

        var wrongType = good
        wrongType["expires_in"] = "7200"
        var missing = good
        missing["session_id"] = nil
        var undeclared = good
        undeclared["expiresIn"] = 7200
        var badFormat = good
        badFormat["session_id"] = "session-1"
        var badConst = good
        badConst["token_type"] = "bearer"
        for (label, bad) in [
            ("wrong type", wrongType), ("missing", missing), ("undeclared", undeclared), ("format", badFormat),
            ("const", badConst)
        ] {
            #expect(!validator.problems(bad, against: tokenResponse).isEmpty, "\(label) passed: \(bad)")
        }
        good["user"] = ["id": UUID().uuidString, "email_verified": "yes", "created_at": "2026-11-25T10:00:00Z"]
        #expect(
            !validator.problems(good, against: tokenResponse).isEmpty,
            "a nested member of the wrong type fails through $ref")

        let grant = try #require(validator.schema(named: "TokenRequest"))
        #expect(validator.problems(try Self.encoded(TokenRequest.refresh("r")), against: grant).isEmpty)
        #expect(
            !validator.problems(["grant_type": "magic", "refresh_token": "r"], against: grant).isEmpty,
            "oneOf with no match fails")
    }
}
