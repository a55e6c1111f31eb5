import Vapor

extension Request {
    /// Whether the request is under `/first/…`: read from the route it matched (its path is already
    /// split), else (no route: a 404) from the URL. `url.path` rebuilds the path through
    /// `URLComponents` at each call, 7 % of latchd's CPU on `GET /health` when every middleware asked
    /// for it (issue 21).
    func isUnder(_ first: String) -> Bool {
        if let route {
            guard case .constant(let component) = route.path.first else { return false }
            return component == first
        }
        return url.path.hasPrefix("/\(first)/")
    }
}
