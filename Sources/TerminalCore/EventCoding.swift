// Events as JSON, for recorded sessions (`--record`): a session file lists the keys, pastes,
// clicks and resizes a run received, and `--replay` feeds them to a headless host.

// (Event, KeyEvent, MouseEvent, Point and Size are Codable where they are declared; the key's
// code is written here by hand so that a character is a string in the file.)

extension KeyModifiers: Codable {}

extension KeyCode: Codable {
    private enum CodingKeys: String, CodingKey { case char, key, function }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try container.decodeIfPresent(String.self, forKey: .char) {
            guard text.count == 1, let character = text.first else {
                throw DecodingError.dataCorruptedError(forKey: .char, in: container, debugDescription: "a key's char must be one character, not \"\(text)\"")
            }
            self = .char(character)
        } else if let number = try container.decodeIfPresent(Int.self, forKey: .function) {
            self = .function(number)
        } else {
            let name = try container.decode(String.self, forKey: .key)
            guard let code = Self.named[name] else {
                throw DecodingError.dataCorruptedError(forKey: .key, in: container, debugDescription: "unknown key \"\(name)\"")
            }
            self = code
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .char(let character): try container.encode(String(character), forKey: .char)
        case .function(let number): try container.encode(number, forKey: .function)
        default: try container.encode(Self.named.first { $0.value == self }!.key, forKey: .key)
        }
    }

    private static let named: [String: KeyCode] = [
        "enter": .enter, "tab": .tab, "backspace": .backspace, "escape": .escape,
        "up": .up, "down": .down, "left": .left, "right": .right,
        "home": .home, "end": .end, "pageUp": .pageUp, "pageDown": .pageDown, "insert": .insert, "delete": .delete,
    ]
}
