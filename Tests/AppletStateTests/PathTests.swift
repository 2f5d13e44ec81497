import Foundation
import Testing
@testable import AppletState

/// `Path` replaced NSString's path methods: it must give what they gave for every path the store
/// makes (folders from --state-dir, XDG, the temporary folder; file names from keys).
@Suite("Path")
struct PathTests {
    @Test(arguments: ["/state/a.json", "/state/", "/state//files/a.json", "a.json", "dir/a.json", "/a", "", "/tmp/x y/é.json"])
    func splitsAsNSStringDid(_ path: String) {
        #expect(Path.directory(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        if path != "" && path != "/" {
            #expect(Path.name(of: path) == (path as NSString).lastPathComponent, "\(path)")
        }
    }

    @Test(arguments: [("/state", "files"), ("/state/", "a.json"), ("/home/u", ".local/state"), ("", "x"), ("rel", "b/c")])
    func joinsAsNSStringDid(_ base: String, _ name: String) {
        #expect(Path.join(base, name) == (base as NSString).appendingPathComponent(name), "\(base) + \(name)")
    }

    @Test func aNameWithALeadingSeparatorStaysUnderTheBase() {
        // NSString gave "/s//abs.json" (the same file); FilePath drops the doubled separator.
        #expect(Path.join("/s", "/abs.json") == "/s/abs.json")
    }
}
