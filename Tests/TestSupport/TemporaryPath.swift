import Foundation

/// A path in the temporary folder that no other test (and no other run) uses: `<prefix>-<UUID>`
/// and `suffix`. Nothing is made there; the test makes the file or folder, and removes it.
///
/// ```swift
/// let folder = temporaryPath("store")
/// defer { try? FileManager.default.removeItem(atPath: folder) }
/// ```
public func temporaryPath(_ prefix: String, suffix: String = "") -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)").path
}
