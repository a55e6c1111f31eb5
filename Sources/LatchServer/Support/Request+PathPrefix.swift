import Hummingbird

extension Request {
    /// Whether the request's path is under `/first/…` (leading slashes ignored, as routing ignores them).
    func isUnder(_ first: String) -> Bool {
        let path = uri.path.utf8.drop { $0 == UInt8(ascii: "/") }
        return path.starts(with: first.utf8) && path.dropFirst(first.utf8.count).first == UInt8(ascii: "/")
    }
}
