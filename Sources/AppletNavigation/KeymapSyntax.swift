/// The TOML a keymap is written in, read into its assignments: every `key = value` with its full
/// dotted path (table headers included) and its line. It reads the whole of TOML's syntax for
/// keys, tables, strings (basic, literal, multi-line, every escape) and arrays; numbers, booleans,
/// dates and inline tables are read as "other values", which a keymap refuses by name.
///
/// A keymap may come from someone else, so the reader is linear in the text's length and bounded:
/// arrays nest at most `maximumDepth` deep, and any input ends in a result or in one `Failure`
/// with its line — never a trap. (TOMLKit's parser, toml++, aborts on `[[[a]]]`.)
///
/// ```swift
/// let document = try KeymapSyntax.parse("[keys]\n\"host.quit\" = [\"q\", \"ctrl-q\"]\n")
/// document.assignments[0].path    // ["keys", "host.quit"]
/// document.assignments[0].value   // .array([.string("q"), .string("ctrl-q")])
/// document.assignments[0].line    // 2
/// ```
struct KeymapSyntax {
    enum Value: Equatable {
        case string(String)
        case array([Value])
        /// A number, boolean, date or inline table: valid TOML, not a key.
        case other
    }

    struct Assignment: Equatable {
        var path: [String]
        var value: Value
        var line: Int
    }

    /// A table header (`[keys]`, `[keys.notes]`).
    struct Header: Equatable {
        var path: [String]
        var line: Int
    }

    struct Document: Equatable {
        var assignments: [Assignment] = []
        var headers: [Header] = []
    }

    /// Why the text is not TOML, and on which line.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var document = Document()
    /// Every path defined: by a value, or as a table (by a header, or on the way to a dotted key).
    private var defined: [[String]: Definition] = [:]

    private enum Definition { case value, header, implicitTable }

    private init(_ text: String) { bytes = Array(text.utf8) }

    static func parse(_ text: String) throws(Failure) -> Document {
        var parser = KeymapSyntax(text)
        try parser.parseDocument()
        return parser.document
    }

    // MARK: The document

    private mutating func parseDocument() throws(Failure) {
        var table: [String] = []
        while true {
            skipBlanks()
            guard let byte = peek else { return }
            switch byte {
            case UInt8(ascii: "#"): skipComment()
            case 0x0A: newline()
            case 0x0D:
                index += 1
                guard peek == 0x0A else { throw fail("a carriage return not followed by a new line") }
            case UInt8(ascii: "["):
                table = try header()
            default:
                let start = line
                let key = try self.key()
                skipBlanks()
                guard peek == UInt8(ascii: "=") else { throw fail("expected \"=\" after the key") }
                index += 1
                skipBlanks()
                let value = try self.value(depth: 0)
                try define(table + key, as: .value)
                document.assignments.append(Assignment(path: table + key, value: value, line: start))
                try endOfLine()
            }
        }
    }

    private mutating func header() throws(Failure) -> [String] {
        index += 1
        if peek == UInt8(ascii: "[") { throw fail("an array of tables ([[…]]) is not part of a keymap") }
        skipBlanks()
        let path = try key()
        skipBlanks()
        guard peek == UInt8(ascii: "]") else { throw fail("expected \"]\" to close the table's name") }
        index += 1
        try define(path, as: .header)
        document.headers.append(Header(path: path, line: line))
        try endOfLine()
        return path
    }

    /// Records a definition, refusing what TOML refuses: a key defined twice, a table named twice,
    /// a value where a table is, a table inside a value.
    private mutating func define(_ path: [String], as definition: Definition) throws(Failure) {
        for length in 1..<max(1, path.count) {
            let prefix = Array(path.prefix(length))
            switch defined[prefix] {
            case .value?: throw fail("\"\(prefix.joined(separator: "."))\" is a value, not a table")
            case nil: defined[prefix] = .implicitTable
            default: break
            }
        }
        switch (defined[path], definition) {
        case (nil, _), (.implicitTable?, .header):
            defined[path] = definition
        default:
            throw fail("\"\(path.joined(separator: "."))\" is defined twice")
        }
    }

    // MARK: Keys

    private mutating func key() throws(Failure) -> [String] {
        var parts = [try simpleKey()]
        while true {
            skipBlanks()
            guard peek == UInt8(ascii: ".") else { return parts }
            index += 1
            skipBlanks()
            parts.append(try simpleKey())
        }
    }

    private mutating func simpleKey() throws(Failure) -> String {
        switch peek {
        case UInt8(ascii: "\"")?: return try basicString(multiline: false)
        case UInt8(ascii: "'")?: return try literalString(multiline: false)
        default:
            let start = index
            while let byte = peek, Self.isBareKey(byte) { index += 1 }
            guard index > start else { throw fail("expected a key") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(Failure) -> Value {
        guard let byte = peek, byte != 0x0A, byte != 0x0D, byte != UInt8(ascii: "#") else {
            throw fail("expected a value after \"=\"")
        }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try basicString(multiline: starts(with: "\"\"\"")))
        case UInt8(ascii: "'"):
            return .string(try literalString(multiline: starts(with: "'''")))
        case UInt8(ascii: "["):
            return try array(depth: depth + 1)
        case UInt8(ascii: "{"):
            try inlineTable(depth: depth + 1)
            return .other
        default:
            // A number, boolean or date: its characters, up to what may follow a value.
            let start = index
            while let next = peek, !Self.endsScalar(next) { index += 1 }
            // A date and a time may be separated by one space ("1979-05-27 07:32:00").
            if peek == UInt8(ascii: " "), index + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]),
               bytes[start..<index].contains(UInt8(ascii: "-")) {
                index += 1
                while let next = peek, !Self.endsScalar(next) { index += 1 }
            }
            guard index > start else { throw fail("expected a value after \"=\"") }
            return .other
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",")
            || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "#")
    }

    private mutating func array(depth: Int) throws(Failure) -> Value {
        guard depth <= Self.maximumDepth else { throw fail("arrays nested more than \(Self.maximumDepth) deep") }
        index += 1
        var elements: [Value] = []
        while true {
            skipArraySpace()
            guard let byte = peek else { throw fail("the array is not closed with \"]\"") }
            if byte == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            elements.append(try value(depth: depth))
            skipArraySpace()
            if peek == UInt8(ascii: ",") {
                index += 1
            } else if peek != UInt8(ascii: "]") {
                throw fail("expected \",\" or \"]\" in the array")
            }
        }
    }

    /// Blanks, new lines and comments, which may sit anywhere inside an array.
    private mutating func skipArraySpace() {
        while let byte = peek {
            switch byte {
            case UInt8(ascii: " "), 0x09, 0x0D: index += 1
            case 0x0A: newline()
            case UInt8(ascii: "#"): skipComment()
            default: return
            }
        }
    }

    private mutating func inlineTable(depth: Int) throws(Failure) {
        guard depth <= Self.maximumDepth else { throw fail("values nested more than \(Self.maximumDepth) deep") }
        index += 1
        skipBlanks()
        if peek == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipBlanks()
            _ = try key()
            skipBlanks()
            guard peek == UInt8(ascii: "=") else { throw fail("expected \"=\" in the inline table") }
            index += 1
            skipBlanks()
            _ = try value(depth: depth)
            skipBlanks()
            switch peek {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?:
                index += 1
                return
            default: throw fail("expected \",\" or \"}\" in the inline table")
            }
        }
    }

    // MARK: Strings

    private mutating func basicString(multiline: Bool) throws(Failure) -> String {
        index += multiline ? 3 : 1
        if multiline { skipNewlineAfterOpening() }
        var out: [UInt8] = []
        while true {
            guard let byte = peek else { throw fail("the string is not closed") }
            if multiline ? starts(with: "\"\"\"") : byte == UInt8(ascii: "\"") {
                index += multiline ? 3 : 1
                // Up to two quotes right before the closing three belong to the string.
                if multiline {
                    var extra = 0
                    while extra < 2, peek == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\"")); index += 1; extra += 1 }
                }
                return String(decoding: out, as: UTF8.self)
            }
            switch byte {
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &out, multiline: multiline)
            case 0x0A:
                guard multiline else { throw fail("the string is not closed on its line") }
                out.append(byte)
                newline()
            case 0x00...0x08, 0x0B...0x1F, 0x7F:
                if byte == 0x0D, multiline, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    index += 1
                    continue
                }
                throw fail("a control character inside a string (write it as an escape)")
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    private mutating func escape(into out: inout [UInt8], multiline: Bool) throws(Failure) {
        guard let byte = peek else { throw fail("the string is not closed") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): out.append(byte)
        case UInt8(ascii: "\\"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "e"): out.append(0x1B)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = byte == UInt8(ascii: "u") ? 4 : 8
            guard index + digits <= bytes.count,
                  let value = UInt32(String(decoding: bytes[index..<(index + digits)], as: UTF8.self), radix: 16),
                  let scalar = Unicode.Scalar(value) else { throw fail("\\\(Character(Unicode.Scalar(byte))) must be followed by \(digits) hex digits of a Unicode scalar") }
            index += digits
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        case UInt8(ascii: " "), 0x09, 0x0A, 0x0D:
            // A backslash at the end of a line joins it with the next non-blank text.
            guard multiline else { throw fail("an unknown escape in the string") }
            index -= 1
            while let next = peek, next == UInt8(ascii: " ") || next == 0x09 { index += 1 }
            guard peek == 0x0A || peek == 0x0D else { throw fail("an unknown escape in the string") }
            while let next = peek, next == UInt8(ascii: " ") || next == 0x09 || next == 0x0A || next == 0x0D {
                if next == 0x0A { newline() } else { index += 1 }
            }
        default:
            throw fail("an unknown escape in the string")
        }
    }

    private mutating func literalString(multiline: Bool) throws(Failure) -> String {
        index += multiline ? 3 : 1
        if multiline { skipNewlineAfterOpening() }
        let start = index
        while true {
            guard let byte = peek else { throw fail("the string is not closed") }
            if multiline ? starts(with: "'''") : byte == UInt8(ascii: "'") {
                var end = index
                index += multiline ? 3 : 1
                if multiline {
                    var extra = 0
                    while extra < 2, peek == UInt8(ascii: "'") { index += 1; end += 1; extra += 1 }
                }
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            if byte == 0x0A {
                guard multiline else { throw fail("the string is not closed on its line") }
                newline()
            } else if byte < 0x20 && byte != 0x09 && !(byte == 0x0D && multiline) || byte == 0x7F {
                throw fail("a control character inside a string")
            } else {
                index += 1
            }
        }
    }

    private mutating func skipNewlineAfterOpening() {
        if peek == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
        if peek == 0x0A { newline() }
    }

    // MARK: Lines

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
    }

    private mutating func newline() {
        index += 1
        line += 1
    }

    private mutating func skipBlanks() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == 0x09 { index += 1 }
    }

    private mutating func skipComment() {
        while let byte = peek, byte != 0x0A { index += 1 }
    }

    /// After a header or an assignment: blanks, a comment, then the end of the line or the text.
    private mutating func endOfLine() throws(Failure) {
        skipBlanks()
        if peek == UInt8(ascii: "#") { skipComment() }
        if peek == 0x0D { index += 1 }
        switch peek {
        case nil: return
        case 0x0A?: newline()
        default: throw fail("expected the end of the line")
        }
    }

    private func fail(_ message: String) -> Failure { Failure(line: line, message: message) }
}
