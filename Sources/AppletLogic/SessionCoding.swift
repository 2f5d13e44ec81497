import AppletState
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// A session file holds the app's own values (requests, effects, results, coeffects) as JSON
// objects inside each line, readable as they are, rather than as strings of JSON.
extension JSONValue {
    /// The JSON of any encodable value.
    public init(encoding value: any Encodable) throws {
        let data = try JSONValue.sessionEncoder.encode(AnyEncodable(value))
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes a value of `type` from this JSON.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: JSONValue.sessionEncoder.encode(self))
    }

    /// Compact, sorted keys, and floats JSON cannot hold as strings (a recording must not fail on
    /// an infinite value).
    static let sessionEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()
}

/// Encodes an existential `any Encodable`.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
