import Foundation

/// A new applet package, ready to build, run and test: the applet, its Interface target, a small
/// host executable, a headless test and a README. `appletkit new-applet Notes` writes one.
///
/// ```swift
/// let template = try AppletPackageTemplate(name: "Notes", framework: .url("file:///home/me/src/AppletKit", from: "0.1.0"))
/// let folder = try template.write(into: URL(fileURLWithPath: "/home/me/src"))   // …/src/NotesApplet
/// ```
///
/// The names follow the example applets: package and applet target `NotesApplet`, Interface
/// target `NotesAppletInterface`, host target `NotesHost` with the executable `notes`, test target
/// `NotesAppletTests`, and the shared state `Application.notes`.
public struct AppletPackageTemplate: Sendable, Equatable {
    /// Where the package gets AppletKit from.
    public enum Framework: Sendable, Equatable {
        /// A released version, by git URL: `.package(url:from:)`.
        case url(String, from: String)
        /// A checkout on disk: `.package(name: "AppletKit", path:)`.
        case path(String)
    }

    /// Why a name cannot be used.
    public struct NameError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The feature's name, as typed (`Notes`), without an `Applet` suffix.
    public let name: String
    public let framework: Framework

    /// - Parameter name: a Swift type name starting with a capital letter (`Notes`, `DiskUsage`);
    ///   a trailing `Applet` is dropped (`NotesApplet` is `Notes`).
    public init(name: String, framework: Framework) throws {
        var base = name
        if base.hasSuffix("Applet"), base.count > "Applet".count { base.removeLast("Applet".count) }
        guard let first = base.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first), first.isASCII,
              base.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else {
            throw NameError(description: "'\(name)' is not a usable applet name: use letters and digits, starting with a capital letter (e.g. Notes, DiskUsage)")
        }
        let property = Self.lowerFirst(base)
        guard !Self.reservedTypes.contains(base + "State"), !Self.reservedTypes.contains(base + "Applet") else {
            throw NameError(description: "'\(name)' would declare \(base)State, which AppletKit already has; choose another name (e.g. My\(base))")
        }
        guard !Self.reservedProperties.contains(property) else {
            throw NameError(description: "'\(name)' would declare Application.\(property), which AppletKit already has; choose another name (e.g. My\(base))")
        }
        self.name = base
        self.framework = framework
    }

    /// Framework names a generated `<Name>State` or `<Name>Applet` would shadow.
    static let reservedTypes: Set<String> = [
        "AppletState", "AppState", "FileState", "SecureState", "StoredState", "SyncState", "WidgetState",
        "MutableApplicationState", "AppletApplet",
    ]

    /// `Application` members (and Swift keywords) a generated `Application.<name>` would collide with.
    static let reservedProperties: Set<String> = [
        "state", "storedState", "fileState", "syncState", "secureState", "scopedState", "dependency",
        "shared", "current", "changes", "storage", "flush", "reset", "promote", "storeIssues", "report", "uuid",
        "self", "init", "default", "import", "protocol", "struct", "class", "enum", "extension", "func",
        "var", "let", "return", "switch", "case", "if", "else", "for", "while", "in", "is", "as", "do",
        "try", "throw", "throws", "public", "private", "internal", "static", "where", "guard", "repeat",
    ]

    public var packageName: String { name + "Applet" }
    public var appletTarget: String { name + "Applet" }
    public var interfaceTarget: String { name + "AppletInterface" }
    public var hostTarget: String { name + "Host" }
    public var testTarget: String { name + "AppletTests" }
    /// The executable's name: `Notes` → `notes`, `DiskUsage` → `disk-usage`.
    public var executable: String {
        var out = ""
        for (i, ch) in name.enumerated() {
            if ch.isUppercase, i > 0 { out.append("-") }
            out.append(contentsOf: ch.lowercased())
        }
        return out
    }
    /// The applet's id (`--tab notes`) and the store key's feature.
    public var appletID: String { executable }
    /// The shared state's property on `Application` (`notes`, `diskUsage`).
    public var stateProperty: String { Self.lowerFirst(name) }
    /// The shared state's type.
    public var stateType: String { name + "State" }

    /// The package identity SwiftPM gives the framework dependency (what `.product(package:)` names).
    public var frameworkIdentity: String {
        switch framework {
        case .path: return "AppletKit"
        case .url(let url, _):
            var last = url.split(separator: "/").last.map(String.init) ?? "AppletKit"
            if last.hasSuffix(".git") { last.removeLast(4) }
            return last
        }
    }

    static func lowerFirst(_ s: String) -> String {
        guard let first = s.first else { return s }
        // Leading capitals run together: "URLTool" -> "urlTool".
        let upperRun = s.prefix { $0.isUppercase }
        if upperRun.count > 1, upperRun.count < s.count { return upperRun.dropLast().lowercased() + s.dropFirst(upperRun.count - 1) }
        if upperRun.count == s.count { return s.lowercased() }
        return first.lowercased() + s.dropFirst()
    }

    // MARK: Writing it

    /// The package's files, by path relative to its folder.
    public var files: [(path: String, contents: String)] {
        [
            ("Package.swift", manifest),
            ("Sources/\(interfaceTarget)/\(stateType).swift", interfaceSource),
            ("Sources/\(appletTarget)/\(appletTarget).swift", appletSource),
            ("Sources/\(hostTarget)/\(hostTarget).swift", hostSource),
            ("Tests/\(testTarget)/\(testTarget).swift", testSource),
            ("README.md", readme),
            (".gitignore", gitignore),
        ]
    }

    /// Writes the package into a new folder `packageName` inside `parent` and returns that folder.
    /// Refuses (and writes nothing) when the folder exists and is not empty.
    @discardableResult
    public func write(into parent: URL) throws -> URL {
        let fileManager = FileManager.default
        let folder = parent.appendingPathComponent(packageName)
        if let existing = try? fileManager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
            throw NameError(description: "\(folder.path) already exists and is not empty; choose another name or folder (--path)")
        }
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url)
        }
        return folder
    }
}
