import Synchronization
import Vapor

/// Which methods the registered routes accept on a path, so that a known path asked with another
/// method answers 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110 §15.5.6) instead of Vapor's 404.
/// Built from `app.routes` on first use, and again whenever routes were added since.
final class AllowedMethods: Sendable {
    private struct Pattern {
        let path: [PathComponent]
        var methods: Set<String>
    }

    private let built = Mutex<(routeCount: Int, patterns: [Pattern])>((-1, []))

    /// The methods allowed on `path`, sorted, or empty when no route has this path.
    func methods(for path: String, in routes: Routes) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let patterns = built.withLock { built -> [Pattern] in
            let all = routes.all
            if built.routeCount != all.count { built = (all.count, Self.patterns(of: all)) }
            return built.patterns
        }
        var methods = Set<String>()
        for pattern in patterns where Self.matches(pattern.path, segments) { methods.formUnion(pattern.methods) }
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }

    private static func patterns(of routes: [Route]) -> [Pattern] {
        var byPath: [String: Pattern] = [:]
        for route in routes {
            byPath[route.path.string, default: Pattern(path: route.path, methods: [])].methods.insert(
                route.method.rawValue)
        }
        return Array(byPath.values)
    }

    private static func matches(_ pattern: [PathComponent], _ segments: [String]) -> Bool {
        for (index, component) in pattern.enumerated() {
            switch component {
            case .catchall: return segments.count > index
            case .constant(let constant):
                guard index < segments.count, segments[index] == constant else { return false }
            case .parameter, .anything: guard index < segments.count else { return false }
            }
        }
        return pattern.count == segments.count
    }
}
