import Foundation

/// The simple HTML of latchd's mails: every interpolated value is escaped, the layout is inline
/// styles only (mail clients ignore style sheets).
enum MailHTML {
    /// One paragraph of a mail: text, a one-time code shown large, a line set apart in a box (the
    /// anti-phishing code), or text followed by a link.
    enum Block: Sendable, Equatable {
        case text(String)
        case code(String)
        case boxed(String)
        case link(String, url: String)

        /// The paragraph in the text/plain part.
        var plainText: String {
            switch self {
            case .text(let text), .code(let text), .boxed(let text): text
            case .link(let text, let url): "\(text)\n\(url)"
            }
        }
    }

    /// A page of `paragraphs` (plain text each).
    static func page(paragraphs: [String], language: String = "en") -> String {
        page(paragraphs.map(Block.text), language: language)
    }

    static func page(_ blocks: [Block], language: String) -> String {
        let body = blocks.map { (block: Block) -> String in
            switch block {
            case .text(let text):
                "<p style=\"margin:0 0 16px 0;line-height:1.5\">\(escape(text).replacingOccurrences(of: "\n", with: "<br>"))</p>"
            case .code(let code):
                "<p style=\"margin:0 0 16px 0;font-size:28px;font-weight:bold;letter-spacing:4px;font-family:monospace\">\(escape(code))</p>"
            case .boxed(let text):
                "<p style=\"margin:0 0 16px 0;padding:8px 12px;border:1px solid #c7c7cc;border-radius:6px;font-weight:bold\">\(escape(text))</p>"
            case .link(let text, let url):
                "<p style=\"margin:0 0 16px 0;line-height:1.5\">\(escape(text))<br><a href=\"\(escape(url))\">\(escape(url))</a></p>"
            }
        }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="\(escape(language))">
            <head><meta charset="utf-8"><title>Latch</title></head>
            <body style="font-family:-apple-system,Helvetica,Arial,sans-serif;color:#1c1c1e;background:#ffffff;padding:24px">
            <div style="max-width:560px;margin:0 auto">
            <p style="margin:0 0 24px 0;font-size:20px;font-weight:bold">Latch</p>
            \(body)
            </div>
            </body>
            </html>
            """
    }

    /// `text` with `& < > " '` replaced by entities.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
