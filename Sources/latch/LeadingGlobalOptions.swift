/// Global options written before the subcommand, as in git and kubectl (`latch --server URL whoami`):
/// they are moved after the command line's other words, where every command's `GlobalOptions` group
/// parses them (before a `--` terminator, if there is one).
enum LeadingGlobalOptions {
    /// The options every command takes, each with one value.
    static let names: Set<String> = ["--server", "--lang", "--home"]

    /// `arguments` (without the program name) with leading global options moved behind the rest.
    static func movedBehindSubcommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if names.contains(first), rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if let equals = first.firstIndex(of: "="), names.contains(String(first[..<equals])) {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard !leading.isEmpty, !rest.isEmpty else { return arguments }
        var moved = Array(rest)
        let end = moved.firstIndex(of: "--") ?? moved.endIndex
        moved.insert(contentsOf: leading, at: end)
        return moved
    }
}
