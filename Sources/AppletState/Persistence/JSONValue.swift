#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON document as a value: what the persistent kinds of state read from disk before they know
/// the Swift type it belongs to, and what they merge a declaration's initial value with (and what
/// a recorded session holds the app's own values as).
///
/// ```swift
/// let stored = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"theme":"light"}"#.utf8))
/// let merged = JSONValue.object(["theme": .string("dark"), "fontSize": .int(12)]).overlaid(with: stored)
/// // {"fontSize":12,"theme":"light"}
/// ```
public enum JSONValue: Codable, Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int64.self) { self = .int(value); return }
        if let value = try? container.decode(UInt64.self) { self = .uint(value); return }
        if let value = try? container.decode(Double.self) { self = .double(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([String: JSONValue].self) { self = .object(value); return }
        self = .array(try container.decode([JSONValue].self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .uint(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The JSON text, compact with sorted keys.
    public var description: String {
        (try? String(decoding: PersistentCoding.compactEncoder().encode(self), as: UTF8.self)) ?? "?"
    }

    /// `self` with `stored` laid over it: objects merge key by key, recursively, and anything
    /// else in `stored` wins. So an initial value's fields that a stored value lacks (fields added
    /// to a type after the value was saved) keep their initial values.
    func overlaid(with stored: JSONValue) -> JSONValue {
        guard case .object(let base) = self, case .object(let top) = stored else { return stored }
        var merged = base
        for (key, value) in top {
            merged[key] = base[key].map { $0.overlaid(with: value) } ?? value
        }
        return .object(merged)
    }
}

/// Turning values into JSON and back the way every persistent kind of state does it.
enum PersistentCoding {
    /// Compact and deterministic: the fragments of the store file.
    static func compactEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// For files people read: `FileState`.
    static func prettyEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Parses any JSON text (objects, arrays, scalars), or throws if it is not valid JSON.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes a stored value, letting it miss fields that its type gained since it was saved.
    ///
    /// The declaration's `initial` value is encoded, the stored JSON is laid over it (objects
    /// merge recursively, stored wins), and the result is decoded; when that fails (an enum whose
    /// stored case differs from the initial one merges into two cases) the stored JSON is decoded
    /// as it is. Throws the plain decoding error when neither works.
    static func decode<Value: Codable>(_ stored: JSONValue, as type: Value.Type, initial: Value) throws -> Value {
        let decoder = JSONDecoder()
        let encoder = compactEncoder()
        if case .object = stored,
           let initialData = try? encoder.encode(initial),
           let base = try? parse(initialData), case .object = base,
           let mergedData = try? encoder.encode(base.overlaid(with: stored)),
           let merged = try? decoder.decode(Value.self, from: mergedData) {
            return merged
        }
        return try decoder.decode(Value.self, from: encoder.encode(stored))
    }

    /// A short account of why a value did not decode, for messages.
    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        case DecodingError.valueNotFound(let type, let context):
            return "missing \(type) at \(path(context.codingPath))"
        case DecodingError.keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)' at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        default:
            return "\(error)"
        }
    }

    private static func path(_ codingPath: [CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : codingPath.map(\.stringValue).joined(separator: ".")
    }
}

/// The one JSON file that holds every `StoredState` of an app: a JSON object from each key
/// ("Feature.id") to that value's JSON. Kept in memory as each key's encoded JSON, so a write
/// re-encodes only the keys that changed and copies the rest.
struct StoreDocument: Sendable {
    /// Each key's JSON text, compact.
    var fragments: [String: Data] = [:]

    /// Reads a store file's content. Throws if it is not a JSON object.
    init(parsing data: Data) throws {
        guard case .object(let object) = try PersistentCoding.parse(data) else {
            throw DocumentError.notAnObject
        }
        let encoder = PersistentCoding.compactEncoder()
        for (key, value) in object { fragments[key] = try encoder.encode(value) }
    }

    init() {}

    enum DocumentError: Error, CustomStringConvertible {
        case notAnObject
        var description: String { "not a JSON object" }
    }

    /// The stored JSON for `key`, if any.
    func value(for key: String) throws -> JSONValue? {
        try fragments[key].map(PersistentCoding.parse)
    }

    /// The whole file: one key per line, keys sorted, values compact.
    func serialized() -> Data {
        var out = Data("{".utf8)
        let encoder = PersistentCoding.compactEncoder()
        var first = true
        for key in fragments.keys.sorted() {
            out.append(contentsOf: first ? Array("\n  ".utf8) : Array(",\n  ".utf8))
            first = false
            out.append((try? encoder.encode(key)) ?? Data("\"\"".utf8))
            out.append(contentsOf: Array(": ".utf8))
            out.append(fragments[key]!)
        }
        out.append(contentsOf: Array((first ? "}\n" : "\n}\n").utf8))
        return out
    }
}
