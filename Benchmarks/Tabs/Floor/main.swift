// The floor under the tabs benchmark's memory and launch figures: the least a Swift terminal
// program that keeps state costs before any framework. Built like tabs-appletkit's static column
// (release, `--static-swift-stdlib`), it does what every AppletKit app does at launch besides
// drawing: the Swift runtime starts, FoundationEssentials' JSON encodes and decodes one value (a
// store's file), the terminal goes into raw mode. Then it writes one line and waits for `q`.
// The driver measures it as it measures the two programs (`tabs-driver --floor`).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Saved: Codable {
    var tab = "counter"
    var count = 0
}

let data = try JSONEncoder().encode(Saved())
let saved = try JSONDecoder().decode(Saved.self, from: data)

var original = termios()
tcgetattr(STDIN_FILENO, &original)
var raw = original
cfmakeraw(&raw)
tcsetattr(STDIN_FILENO, TCSANOW, &raw)

let line = "floor ready: \(saved.tab) \(saved.count)\r\n"
_ = line.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
var byte: UInt8 = 0
while read(STDIN_FILENO, &byte, 1) == 1, byte != UInt8(ascii: "q") {}
tcsetattr(STDIN_FILENO, TCSANOW, &original)
