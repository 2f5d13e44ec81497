import AppletState

/// Builds a set of widgets from configuration: a settings form from a JSON file, a dashboard
/// from a list of metrics. Each widget it makes is added to a `WidgetManager` under its id, so
/// the widgets can be hidden, shown, disabled and subscribed to like hand-written ones.
///
/// ```swift
/// struct MetricsFactory: WidgetFactory {
///     func makeWidgets(from names: [String], in manager: WidgetManager) throws -> some View {
///         for name in names { manager.add(name) }
///         return VStack { ForEach(names, id: \.self) { name in Text(name).widget(name, in: manager) } }
///     }
/// }
/// let view = try MetricsFactory().makeWidgets(from: ["cpu", "memory"], in: .dashboard)
/// ```
@MainActor
public protocol WidgetFactory {
    associatedtype Configuration
    associatedtype Output: View
    /// Makes the widgets described by `configuration` and adds their ids to `manager`.
    func makeWidgets(from configuration: Configuration, in manager: WidgetManager) throws -> Output
}

/// One field of a form built by `FormFactory`: decodable, so forms can come from a file.
///
/// ```json
/// {"id": "name", "label": "Name", "kind": "text", "placeholder": "Ada"}
/// {"id": "size", "label": "Size", "kind": "choice", "options": ["S", "M", "L"]}
/// ```
public struct FormField: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case text, secure, toggle, checkbox, choice
    }
    public var id: String
    public var label: String
    public var kind: Kind
    public var placeholder: String?
    public var options: [String]?
    /// The widget's first state (visible unless given).
    public var state: WidgetState?

    public init(id: String, label: String, kind: Kind, placeholder: String? = nil, options: [String]? = nil, state: WidgetState? = nil) {
        self.id = id
        self.label = label
        self.kind = kind
        self.placeholder = placeholder
        self.options = options
        self.state = state
    }
}

/// A value a form field holds.
public enum FormValue: Codable, Sendable, Equatable {
    case text(String)
    case flag(Bool)
    case choice(Int)

    public var text: String { if case .text(let s) = self { return s }; return "" }
    public var flag: Bool { if case .flag(let b) = self { return b }; return false }
    public var choice: Int { if case .choice(let i) = self { return i }; return 0 }
}

/// Why a form could not be built.
public enum FormFactoryError: Error, Equatable, CustomStringConvertible {
    case duplicateID(String)
    case emptyChoice(String)

    public var description: String {
        switch self {
        case .duplicateID(let id): return "two form fields have the id \"\(id)\"; ids must be unique"
        case .emptyChoice(let id): return "the choice field \"\(id)\" has no options"
        }
    }
}

/// Builds a labelled form (text, secure, toggle, checkbox and choice fields) from `[FormField]`.
/// Values are kept in `values`, a store entry keyed by field id; each field is a managed widget.
///
/// ```swift
/// let fields = try JSONDecoder().decode([FormField].self, from: data)
/// let form = try FormFactory(values: Application.current.state(initial: [:], id: "settings"))
///     .makeWidgets(from: fields, in: .settings)
/// ```
public struct FormFactory: WidgetFactory {
    public let values: Application.State<[String: FormValue]>

    public init(values: Application.State<[String: FormValue]>) { self.values = values }

    public func makeWidgets(from fields: [FormField], in manager: WidgetManager) throws -> Grid<AnyView> {
        var seen = Set<String>()
        for field in fields {
            guard seen.insert(field.id).inserted else { throw FormFactoryError.duplicateID(field.id) }
            if field.kind == .choice, field.options?.isEmpty ?? true { throw FormFactoryError.emptyChoice(field.id) }
            manager.add(field.id, field.state ?? .visible)
        }
        let rows = fields.map { row(for: $0, in: manager) }
        return Grid(spacing: 2) { AnyView(ForEach(rows.indices, id: \.self) { rows[$0] }) }
    }

    private func row(for field: FormField, in manager: WidgetManager) -> AnyView {
        let values = self.values
        let id = field.id
        func binding<T: Sendable>(_ get: @escaping @Sendable (FormValue?) -> T, _ make: @escaping @Sendable (T) -> FormValue) -> Binding<T> {
            Binding(get: { get(values.value[id]) }, set: { newValue in values.modify { $0[id] = make(newValue) } })
        }
        let text = binding({ $0?.text ?? "" }, FormValue.text)
        let flag = binding({ $0?.flag ?? false }, FormValue.flag)
        let choice = binding({ $0?.choice ?? 0 }, FormValue.choice)
        let label = Text(field.label).themed(.muted)
        switch field.kind {
        case .text:
            return AnyView(GridRow { label; TextField(field.placeholder ?? "", text: text) }.widget(id, in: manager))
        case .secure:
            return AnyView(GridRow { label; TextField(field.placeholder ?? "", text: text).secure() }.widget(id, in: manager))
        case .toggle:
            return AnyView(GridRow { label; Toggle(field.placeholder ?? "", isOn: flag) }.widget(id, in: manager))
        case .checkbox:
            return AnyView(GridRow { label; Checkbox(field.placeholder ?? "", isOn: flag) }.widget(id, in: manager))
        case .choice:
            return AnyView(GridRow { label; RadioGroup(field.options ?? [], selection: choice, axis: .horizontal) }.widget(id, in: manager))
        }
    }
}
