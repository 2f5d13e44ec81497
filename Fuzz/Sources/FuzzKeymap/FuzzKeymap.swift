import AppletKit

/// A keymap file: parsed, its ids checked against a set of known commands. Whatever the text, it
/// must end with bindings and issues, every issue's line inside the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeymap(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let (keymap, issues) = Keymap.parse(text, file: "keys.toml")
    let lineCount = text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    for issue in issues + keymap.unknownIDs(known: known) {
        if let line = issue.line, !(1...lineCount).contains(line) {
            fatalError("issue on line \(line) of a \(lineCount)-line file: \(issue)")
        }
    }
    for (id, sequences) in keymap.bindings where id.isEmpty && !sequences.isEmpty {
        fatalError("a binding with an empty id")
    }
    return 0
}

private let known: Set<String> = ["host.quit", "host.help", "host.palette", "notes.delete", "notes.save", "counter.increment"]
