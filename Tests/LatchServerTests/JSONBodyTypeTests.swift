import Foundation
import HTTPTypes
import Testing

@testable import LatchServer

/// C11 (issue 21): the JSON-body rule answers from a fast path for the common headers; it must answer exactly
/// what the media-type parser answers, for every header a client could send.
@Suite("C11 JSON body rule fast path")
struct JSONBodyTypeTests {
    static let contentTypes: [[String]] = [
        [], ["application/json"], ["APPLICATION/JSON"], ["application/json; charset=utf-8"],
        ["Application/Json; Charset=UTF-8"], ["application/json;charset=utf-8"], ["application/json; charset=latin1"],
        ["application/jsonx"], ["application/json-patch+json"], ["text/plain"], ["*/*"], ["application/*"],
        [" application/json"], ["application/json "], ["application/json, text/plain"],
        ["text/plain, application/json"],
        ["application/json", "text/plain"], ["text/plain", "application/json"], [""],
        ["application/json; charset=utf-88"],
        ["application/x-www-form-urlencoded"], ["multipart/form-data; boundary=x"]
    ]

    @Test("C11 isJSON answers as the parser (the first Content-Type line counts)", arguments: contentTypes)
    func C11_isJSONAnswersAsTheParser(values: [String]) {
        var headers = HTTPFields()
        for value in values { headers.append(HTTPField(name: .contentType, value: value)) }

        #expect(JSONBodyMiddleware.isJSON(headers) == (values.first.map(JSONBodyMiddleware.isJSONParsed) ?? false))
    }

    @Test("C11 the parser: application/json in any case, with parameters; no wildcard, no other type")
    func C11_theParserKnowsJSON() {
        for json in ["application/json", "APPLICATION/JSON", "application/json;charset=utf-8", " application/json "] {
            #expect(JSONBodyMiddleware.isJSONParsed(json), "\(json)")
        }
        for other in ["*/*", "application/*", "application/jsonx", "text/plain", "", "application/json-patch+json"] {
            #expect(!JSONBodyMiddleware.isJSONParsed(other), "\(other)")
        }
    }

    static let lengths: [[String]] = [
        [], ["0"], ["1"], ["00"], ["10"], [" 0"], ["0 "], ["0, 0"], ["5, 5"], ["0", "0"], ["0", "3"], [""]
    ]

    @Test("C11 hasBody answers as the trimmed comparison", arguments: lengths)
    func C11_hasBodyAnswersAsTheTrimmedComparison(values: [String]) {
        var headers = HTTPFields()
        for value in values { headers.append(HTTPField(name: .contentLength, value: value)) }

        let trimmed = values.contains { $0.trimmingCharacters(in: .whitespaces) != "0" }
        #expect(JSONBodyMiddleware.hasBody(headers) == trimmed)
    }
}
