import Logging

/// JSON text for log lines, written by hand (no encoder per entry): strings with RFC 8259 escapes
/// (every control character escaped, so a value can never end its line), metadata values as JSON
/// strings, arrays and objects.
enum JSONText {
    static func appendString(_ text: String, to output: inout String) {
        output.unicodeScalars.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output.unicodeScalars.append("\"")
    }

    static func append(_ value: Logger.Metadata.Value, to output: inout String) {
        switch value {
        case .string(let text):
            appendString(text, to: &output)
        case .stringConvertible(let convertible):
            appendString(convertible.description, to: &output)
        case .array(let values):
            output += "["
            for (index, element) in values.enumerated() {
                if index > 0 { output += "," }
                append(element, to: &output)
            }
            output += "]"
        case .dictionary(let fields):
            output += "{"
            for (index, (key, element)) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output += "," }
                appendString(key, to: &output)
                output += ":"
                append(element, to: &output)
            }
            output += "}"
        }
    }
}
