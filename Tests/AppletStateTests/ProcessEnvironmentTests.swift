import Foundation
import Testing
@testable import AppletState

@Suite("ProcessEnvironment")
struct ProcessEnvironmentTests {
    @Test func readsWhatFoundationReads() {
        #expect(ProcessEnvironment.current == ProcessInfo.processInfo.environment)
    }

    @Test func splitsAtTheFirstEqualsSignSkipsMalformedEntriesAndKeepsTheFirstOfTwo() {
        let strings = ["A=b=c", "EMPTY=", "NOEQUALS", "UNI=ç→中", "A=second"].map { $0.withCString { strdup($0) } }
        defer { strings.forEach { free($0) } }
        var entries: [UnsafeMutablePointer<CChar>?] = strings + [nil]
        let parsed = entries.withUnsafeMutableBufferPointer { ProcessEnvironment.dictionary(from: $0.baseAddress) }
        #expect(parsed == ["A": "b=c", "EMPTY": "", "UNI": "ç→中"])
        #expect(ProcessEnvironment.dictionary(from: nil).isEmpty)
    }

    @Test func homeIsHOMEUnlessEmptyThenThePasswordDatabases() {
        #expect(ProcessEnvironment.home(in: ["HOME": "/home/ada"]) == "/home/ada")
        let fromDatabase = ProcessEnvironment.home(in: ["HOME": ""])
        #expect(fromDatabase == ProcessEnvironment.home(in: [:]))
        #expect(fromDatabase.hasPrefix("/"))
    }
}
