import Foundation
import Synchronization

/// Where the built `appletkit` is.
///
/// `APPLETKIT_BINARY` wins when set. Otherwise the newest `debug/appletkit` under the repository's
/// `.build` (where `make` builds every package) or any other `.build*` scratch folder, at the
/// repository's root or in `Demo/`. The tests never build it themselves: `make test` builds first.
enum AppBinary {
    /// The repository root: the nearest folder above this file with AppletKit's manifest and sources.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let fileManager = FileManager.default
        while url.path != "/" {
            if fileManager.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
               fileManager.fileExists(atPath: url.appendingPathComponent("Sources/AppletKit").path) { return url }
            url.deleteLastPathComponent()
        }
        // Demo/Tests/EndToEndTests/Support/AppBinary.swift -> four levels up.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The demo package's folder.
    static var demoRoot: URL { repositoryRoot.appendingPathComponent("Demo") }

    private static let located = Mutex<[String: Result<String, HarnessError>]>([:])

    /// The demo binary's absolute path, or an error explaining how to get one.
    static func path() throws -> String { try path(named: "appletkit") }

    /// The absolute path of another executable the demo package builds (`appletkit-fixture`,
    /// `appletkit-state-probe`): beside the `appletkit` found, so both come from one build.
    static func path(named name: String) throws -> String {
        try located.withLock { cache in
            if let found = cache[name] { return found }
            let found = locate(name)
            cache[name] = found
            return found
        }.get()
    }

    private static func locate(_ name: String) -> Result<String, HarnessError> {
        let fileManager = FileManager.default
        if name != "appletkit" {
            return locate("appletkit").flatMap { demo in
                let path = URL(fileURLWithPath: demo).deletingLastPathComponent().appendingPathComponent(name).path
                guard fileManager.isExecutableFile(atPath: path) else {
                    return .failure(HarnessError("\(name) was not found beside \(demo); build the demo package (`make test` does: swift build --package-path Demo)"))
                }
                return .success(path)
            }
        }
        if let given = ProcessInfo.processInfo.environment["APPLETKIT_BINARY"], !given.isEmpty {
            let url = URL(fileURLWithPath: given, relativeTo: repositoryRoot).standardizedFileURL
            guard fileManager.isExecutableFile(atPath: url.path) else {
                return .failure(HarnessError("APPLETKIT_BINARY=\(given) is not an executable file (resolved to \(url.path)); build it with `swift build` or unset APPLETKIT_BINARY"))
            }
            return .success(url.path)
        }
        var candidates: [(path: String, modified: Date)] = []
        for root in [repositoryRoot, demoRoot] {
            let entries = (try? fileManager.contentsOfDirectory(atPath: root.path)) ?? []
            for folder in entries.filter({ $0.hasPrefix(".build") }).sorted() {
                let path = root.appendingPathComponent(folder).appendingPathComponent("debug/appletkit").path
                guard fileManager.isExecutableFile(atPath: path) else { continue }
                let modified = (try? fileManager.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
                candidates.append((path, modified))
            }
        }
        guard let newest = candidates.max(by: { $0.modified < $1.modified }) else {
            return .failure(HarnessError("""
                The appletkit binary was not found: looked for .build*/debug/appletkit under \(repositoryRoot.path) \
                and \(demoRoot.path). Build it first (`make test` does), or point APPLETKIT_BINARY at a built appletkit.
                """))
        }
        return .success(newest.path)
    }
}
