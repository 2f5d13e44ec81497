import AppletState
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

struct Settings: Codable, Sendable, Equatable {
    var theme = "dark"
    var sizes: [Int] = [12]
    var nested: [String: [Double]] = [:]
}

enum Mode: Codable, Sendable, Equatable {
    case off
    case timer(minutes: Int)
}

extension Application {
    var fuzzCount: StoredState<Int> { storedState(initial: 0, feature: "Fuzz", id: "count") }
    var fuzzSettings: StoredState<Settings> { storedState(initial: Settings(), feature: "Fuzz", id: "settings") }
    var fuzzMode: StoredState<Mode> { storedState(initial: .off, feature: "Fuzz", id: "mode") }
    var fuzzFile: FileState<Settings> { fileState(initial: Settings(), feature: "Fuzz", id: "file") }
    var fuzzSecret: SecureState { secureState(feature: "Fuzz", id: "secret") }
}

/// One folder for the whole run, emptied before each input.
private let folder: String = {
    var template = Array("/tmp/appletkit-fuzz-state-XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { fatalError("mkdtemp") }
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}()

/// The same bytes as the store file, a `FileState`'s file and a secret's: each loads a value or
/// reports an issue (and moves a damaged file aside). Nothing is written back: a write's fsync
/// would make each input take milliseconds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    let fileManager = FileManager.default
    for name in (try? fileManager.contentsOfDirectory(atPath: folder)) ?? [] {
        try? fileManager.removeItem(atPath: folder + "/" + name)
    }
    for sub in ["files", "secure"] { mkdir(folder + "/" + sub, 0o700) }
    _ = fileManager.createFile(atPath: folder + "/fuzz.json", contents: data)
    _ = fileManager.createFile(atPath: folder + "/files/Fuzz.file.json", contents: data)
    _ = fileManager.createFile(atPath: folder + "/secure/Fuzz.secret", contents: data, attributes: [.posixPermissions: 0o600])

    let app = Application()
    var storage = StorageConfiguration(appID: "fuzz", directory: folder)
    // The secret file is what is fuzzed: never moved into a desktop keyring the fuzzer runs under.
    storage.secrets = .files
    app.storage = storage
    Application.withCurrent(app) {
        _ = Application.storedState(\.fuzzCount).value
        _ = Application.storedState(\.fuzzSettings).value
        _ = Application.storedState(\.fuzzMode).value
        _ = Application.fileState(\.fuzzFile).value
        _ = Application.secureState(\.fuzzSecret).value
    }
    return 0
}
