import Testing
import Vapor

@testable import LatchServer

/// C11 (issue 21): the JSON-body rule answers from a fast path for the common headers; it must answer exactly
/// what Vapor's parser answers, for every header a client could send.
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

    @Test("C11 isJSON answers as Vapor's parser", arguments: contentTypes)
    func C11_isJSONAnswersAsTheParser(values: [String]) {
        var headers = HTTPHeaders()
        for value in values { headers.add(name: .contentType, value: value) }

        #expect(JSONBodyMiddleware.isJSON(headers) == JSONBodyMiddleware.isJSONParsed(headers))
    }

    static let lengths: [[String]] = [
        [], ["0"], ["1"], ["00"], ["10"], [" 0"], ["0 "], ["0, 0"], ["5, 5"], ["0", "0"], ["0", "3"], [""]
    ]

    @Test("C11 hasBody answers as the trimmed comparison", arguments: lengths)
    func C11_hasBodyAnswersAsTheTrimmedComparison(values: [String]) {
        var headers = HTTPHeaders()
        for value in values { headers.add(name: .contentLength, value: value) }

        let trimmed = headers[.contentLength].contains { $0.trimmingCharacters(in: .whitespaces) != "0" }
        #expect(JSONBodyMiddleware.hasBody(headers) == trimmed)
    }
}
