/// Columns aligned by display width (a CJK character takes two cells).
struct TextTable {
    let headers: [String]
    let rows: [[String]]

    var lines: [String] {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { Self.width(of: $0[column]) }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1
                    ? row[column]
                    : row[column] + String(repeating: " ", count: widths[column] - Self.width(of: row[column]))
            }.joined(separator: "  ")
        }
    }

    static func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + (isWide($1) ? 2 : 1) }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
