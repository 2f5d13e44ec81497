import AppletLogic
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A session file (`--replay`): refused with a message, or read within every limit, its state
/// files named inside their folder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard let session = try? Session(data: data, file: "bug.session") else { return 0 }
    precondition(Session.Limits.dimension.contains(session.size.columns) && Session.Limits.dimension.contains(session.size.rows),
                 "a session of size \(session.size) was accepted")
    precondition(session.files.count <= Session.Limits.files)
    for (name, text) in session.files {
        precondition(Session.isContainedPath(name) && !name.hasPrefix("/") && !name.split(separator: "/").contains(".."),
                     "a state file named \(name) was accepted")
        precondition(text.utf8.count <= Session.Limits.fileText)
    }
    return 0
}
