import Foundation

/// A JSON Schema (2020-12, as OpenAPI 3.1 uses it) validator for the subset `openapi.json` uses:
/// `type` (one or a list), `required`, `properties`, `additionalProperties` (bool or schema),
/// `propertyNames`, `maxProperties`, `enum`, `const`, `items`, `minItems`, `maxItems`, `minLength`,
/// `maxLength`, `pattern`, `minimum`, `format` (`uuid`, `date-time`, `email`), `$ref` to
/// `#/components/schemas/…`, `allOf`, `anyOf`, `oneOf` (exactly one must match). `discriminator`,
/// `description` and `examples` are annotations and ignored. No package on the allowed list
/// validates JSON Schema, so the tests carry this one; a keyword outside the subset is a failure
/// (`unsupported keyword`), so a document that starts using one cannot pass unchecked.
///
/// `closed: true` also refuses an object member that the schema's `properties` do not declare (the
/// document leaves most objects open; a wire type must still send nothing the document does not name).
struct OpenAPISchemaValidator {
    let document: [String: Any]
    var closed: Bool = true

    static let annotations: Set<String> = [
        "description", "examples", "discriminator", "title", "default", "deprecated", "readOnly", "writeOnly"
    ]
    static let supported: Set<String> = [
        "type", "required", "properties", "additionalProperties", "propertyNames", "maxProperties", "enum", "const",
        "items",
        "minItems", "maxItems", "minLength", "maxLength", "pattern", "minimum", "format", "$ref", "allOf", "anyOf",
        "oneOf"
    ]

    /// The schema `components.schemas.NAME`.
    func schema(named name: String) -> [String: Any]? {
        ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?[name] as? [String: Any]
    }

    /// Every way `value` breaks `schema` (empty: it conforms), each as `path: problem`.
    func problems(_ value: Any, against schema: [String: Any], at path: String = "$") -> [String] {
        var problems: [String] = []
        for key in schema.keys where !Self.supported.contains(key) && !Self.annotations.contains(key) {
            problems.append("\(path): unsupported keyword \(key) in the schema")
        }
        if let reference = schema["$ref"] as? String {
            let prefix = "#/components/schemas/"
            guard reference.hasPrefix(prefix),
                let target = self.schema(named: String(reference.dropFirst(prefix.count)))
            else {
                return problems + ["\(path): unresolvable $ref \(reference)"]
            }
            problems += self.problems(value, against: target, at: path)
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [types as? String ?? "?"]
            guard allowed.contains(where: { Self.value(value, isOfType: $0) }) else {
                return problems + [
                    "\(path): \(Self.describe(value)) is not of type \(allowed.joined(separator: " or "))"
                ]
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            problems.append("\(path): \(Self.describe(value)) is not one of \(options)")
        }
        if let constant = schema["const"], !Self.equal(constant, value) {
            problems.append("\(path): \(Self.describe(value)) is not \(constant)")
        }
        if let all = schema["allOf"] as? [[String: Any]] {
            for sub in all { problems += self.problems(value, against: sub, at: path) }
        }
        if let any = schema["anyOf"] as? [[String: Any]],
            !any.contains(where: { self.problems(value, against: $0, at: path).isEmpty })
        {
            problems.append("\(path): matches none of anyOf")
        }
        if let one = schema["oneOf"] as? [[String: Any]] {
            let results = one.map { self.problems(value, against: $0, at: path) }
            let matching = results.filter(\.isEmpty).count
            if matching != 1 {
                problems.append(
                    "\(path): matches \(matching) of the \(one.count) oneOf schemas, not exactly one"
                        + (matching == 0 ? " (closest: \(results.min { $0.count < $1.count } ?? []))" : ""))
            }
        }
        if let object = value as? [String: Any], !(value is NSNull) {
            problems += objectProblems(object, schema, at: path)
        }
        if let array = value as? [Any] {
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() {
                    problems += self.problems(item, against: items, at: "\(path)[\(index)]")
                }
            }
            if let minimum = schema["minItems"] as? Int, array.count < minimum {
                problems.append("\(path): fewer than \(minimum) items")
            }
            if let maximum = schema["maxItems"] as? Int, array.count > maximum {
                problems.append("\(path): more than \(maximum) items")
            }
        }
        if let string = value as? String {
            problems += stringProblems(string, schema, at: path)
        }
        if let number = value as? NSNumber, !Self.isBool(number), let minimum = schema["minimum"] as? NSNumber,
            number.doubleValue < minimum.doubleValue
        {
            problems.append("\(path): \(number) is below the minimum \(minimum)")
        }
        return problems
    }

    private func objectProblems(_ object: [String: Any], _ schema: [String: Any], at path: String) -> [String] {
        var problems: [String] = []
        let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
        for name in schema["required"] as? [String] ?? [] where object[name] == nil {
            problems.append("\(path): required member \(name) is missing")
        }
        for (name, member) in object.sorted(by: { $0.key < $1.key }) {
            if let property = properties[name] {
                problems += self.problems(member, against: property, at: "\(path).\(name)")
            } else if let additional = schema["additionalProperties"] as? [String: Any] {
                problems += self.problems(member, against: additional, at: "\(path).\(name)")
            } else if schema["additionalProperties"] as? Bool == false {
                problems.append("\(path): member \(name) is not allowed (additionalProperties false)")
            } else if closed, schema["properties"] != nil {
                problems.append("\(path): member \(name) is not declared in the schema")
            }
            if let names = schema["propertyNames"] as? [String: Any] {
                problems += self.problems(name, against: names, at: "\(path).<name \(name)>")
            }
        }
        if let maximum = schema["maxProperties"] as? Int, object.count > maximum {
            problems.append("\(path): more than \(maximum) members")
        }
        return problems
    }

    private func stringProblems(_ string: String, _ schema: [String: Any], at path: String) -> [String] {
        var problems: [String] = []
        if let minimum = schema["minLength"] as? Int, string.unicodeScalars.count < minimum {
            problems.append("\(path): shorter than \(minimum)")
        }
        if let maximum = schema["maxLength"] as? Int, string.unicodeScalars.count > maximum {
            problems.append("\(path): longer than \(maximum)")
        }
        if let pattern = schema["pattern"] as? String {
            if let expression = try? NSRegularExpression(pattern: pattern) {
                let range = NSRange(string.startIndex..., in: string)
                if expression.firstMatch(in: string, range: range) == nil {
                    problems.append("\(path): \"\(string)\" does not match \(pattern)")
                }
            } else {
                problems.append("\(path): the schema's pattern \(pattern) does not compile")
            }
        }
        switch schema["format"] as? String {
        case "uuid"?:
            if UUID(uuidString: string) == nil { problems.append("\(path): \"\(string)\" is not a uuid") }
        case "date-time"?:
            let plain = try? Date(string, strategy: .iso8601)
            let fractional = try? Date(string, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            if plain == nil && fractional == nil { problems.append("\(path): \"\(string)\" is not a date-time") }
        case "email"?:
            let parts = string.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count != 2 || parts[0].isEmpty || !parts[1].contains(".") {
                problems.append("\(path): \"\(string)\" is not an email address")
            }
        case nil:
            break
        case let other?:
            problems.append("\(path): unsupported format \(other)")
        }
        return problems
    }

    // MARK: JSON values from JSONSerialization

    /// Whether JSONSerialization read `true`/`false` (an NSNumber of type char on Linux and Darwin).
    static func isBool(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    static func value(_ value: Any, isOfType type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return (value as? NSNumber).map(isBool) ?? false
        case "integer":
            guard let number = value as? NSNumber, !isBool(number) else { return false }
            return number.doubleValue.rounded() == number.doubleValue
        case "number": return (value as? NSNumber).map { !isBool($0) } ?? false
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case (let a as String, let b as String): a == b
        case (let a as NSNumber, let b as NSNumber): isBool(a) == isBool(b) && a == b
        case (is NSNull, is NSNull): true
        default: false
        }
    }

    static func describe(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
        else { return "\(value)" }
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast().prefix(120))
    }
}
