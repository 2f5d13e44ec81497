import Synchronization

/// A grapheme cluster stored in four bytes, so that a `Cell` is a plain value that copies and
/// compares without reference counting (the frame diff compares every cell, every frame).
///
/// A cluster of one Unicode scalar (almost all text) is stored as that scalar; a longer cluster
/// (`é` written decomposed, `👩‍💻`, flags) is interned once in a process-wide table and stored as
/// its index there.
///
/// ```swift
/// let a = Glyph("a")            // the scalar U+0061
/// let dev = Glyph("👩‍💻")       // interned
/// dev.character == "👩‍💻"       // true
/// ```
public struct Glyph: Hashable, Sendable {
    public let rawValue: UInt32

    /// First raw value used for interned clusters: past the last Unicode scalar.
    private static let internedBase: UInt32 = 0x11_0000

    public static let space = Glyph(rawValue: 0x20)

    init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(_ character: Character) {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first {
            rawValue = only.value
        } else {
            rawValue = Self.internedBase + GlyphTable.shared.index(of: character)
        }
    }

    /// A glyph for one scalar.
    public init(_ scalar: Unicode.Scalar) { rawValue = scalar.value }

    public var isInterned: Bool { rawValue >= Self.internedBase }

    /// The grapheme cluster.
    public var character: Character {
        if !isInterned, let scalar = Unicode.Scalar(rawValue) { return Character(scalar) }
        return GlyphTable.shared.character(at: rawValue - Self.internedBase)
    }

    /// Calls `body` with each scalar of the cluster (no allocation for single scalars).
    public func forEachScalar(_ body: (Unicode.Scalar) -> Void) {
        if !isInterned, let scalar = Unicode.Scalar(rawValue) { body(scalar); return }
        for scalar in character.unicodeScalars { body(scalar) }
    }
}

/// The interned multi-scalar clusters. Grows with the number of distinct such clusters ever
/// drawn, which in practice is small.
final class GlyphTable: Sendable {
    static let shared = GlyphTable()

    private struct Storage {
        var characters: [Character] = []
        var indexes: [Character: UInt32] = [:]
    }
    private let storage = Mutex(Storage())

    func index(of character: Character) -> UInt32 {
        storage.withLock { s in
            if let i = s.indexes[character] { return i }
            let i = UInt32(s.characters.count)
            s.characters.append(character)
            s.indexes[character] = i
            return i
        }
    }

    func character(at index: UInt32) -> Character {
        storage.withLock { s in Int(index) < s.characters.count ? s.characters[Int(index)] : "\u{FFFD}" }
    }
}
