import Foundation
import Logging
import Testing
import TestSupport
@testable import AppletKit

@Suite("Logging")
struct LoggingTests {
    @Test func handlerWritesLinesToTheFileAndTheRingBuffer() throws {
        let folder = temporaryPath("log")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/demo.log"
        let file = try #require(LogFile(path: path))
        let buffer = LogRingBuffer(capacity: 3)
        var logger = Logger(label: "Test") { label in AppletLogHandler(label: label, file: file, buffer: buffer, logLevel: .info) }
        logger[metadataKey: "pane"] = "left"
        logger.debug("not shown at info")
        for i in 1...4 { logger.info("line \(i)", metadata: ["n": "\(i)"]) }
        logger.error("boom")

        // The buffer keeps the newest entries, oldest first.
        #expect(buffer.entries.map(\.message) == ["line 3 n=3 pane=left", "line 4 n=4 pane=left", "boom pane=left"])
        #expect(buffer.entries.last?.level == .error)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 5)
        #expect(text.contains("info Test: line 1 n=1 pane=left"))
        #expect(text.contains("error Test: boom"))
        #expect(!text.contains("not shown"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber
        #expect(folderMode?.intValue == 0o700)
    }

    @Test func aLogOpenedAgainKeepsWhatWasThereAndAppends() throws {
        let folder = temporaryPath("log", suffix: "/deeper/still")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/demo.log"
        try #require(LogFile(path: path)).write("first run\n")
        let again = try #require(LogFile(path: path))
        again.write("second run\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first run\nsecond run\n")
    }

    @Test func anUnopenableLogFileMeansMemoryOnly() throws {
        let blocker = temporaryPath("log-blocker")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        #expect(LogFile(path: blocker + "/state/demo.log") == nil)
    }
}
