/// A problem found in a keymap file, with where it is and what to do about it.
///
/// ```swift
/// KeymapIssue(file: "keys.toml", line: 3, message: "\"ctrl-\" is not a key; write keys like \"ctrl-d\" or \"g g\"").description
/// // "keys.toml:3: \"ctrl-\" is not a key; write keys like \"ctrl-d\" or \"g g\""
/// ```
public struct KeymapIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file's path (or a name for text not read from a file).
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
