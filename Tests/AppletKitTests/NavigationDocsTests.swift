import AppletTesting
import Testing

// The examples of Docs/Navigation.md that are marked
// `<!-- tested in Tests/AppletKitTests/NavigationDocsTests.swift -->`, compiled and run here.
// DocSnippetsTests checks that each such block appears, line for line, in this file.

// MARK: A stack without sheets

/// The screens pushed over the list: one per fruit.
enum FruitRoute: Hashable, Codable, Sendable {
    case detail(Int)
}

extension Application {
    /// No sheets: the path's sheet type is `NoSheet`.
    var fruitPath: StoredState<RouterPath<FruitRoute, NoSheet>> {
        storedState(initial: RouterPath(), feature: "Fruit", id: "path")
    }
    var fruitRow: State<Int> { state(initial: 0, feature: "Fruit", id: "row") }
}

struct FruitApplet: NavigationApplet {
    static let fruits = ["Apple", "Banana", "Cherry"]
    let id = "fruit"
    let title = "Fruit"
    @StoredState(\.fruitPath) private var path
    @AppState(\.fruitRow) private var row

    var navigation: Binding<RouterPath<FruitRoute, NoSheet>> { $path }

    var body: some View {
        let path = $path
        List(Self.fruits, selection: $row) { Text($0) }
            .onEvent(ListEvent.self) { event in
                // Enter on a row sends .activated(row); j/k and the arrows send .selected(row).
                if case .activated(let row) = event { path.wrappedValue.push(.detail(row)) }
            }
    }

    func title(for route: FruitRoute) -> String {
        switch route {
        case .detail(let row): Self.fruits[row]
        }
    }

    func destination(for route: FruitRoute) -> some View {
        switch route {
        case .detail(let row): Text("\(Self.fruits[row]) is a fruit.")
        }
    }
}

@Suite("Docs/Navigation.md examples")
@MainActor
struct NavigationDocsTests {
    @Test func enterOpensTheSelectedRow() throws {
        let host = try AppletTestHost(FruitApplet(), width: 40, height: 8)
        host.press("j", "enter")                     // down to Banana, and open it
        #expect(host.contains("Fruit › Banana"))
        #expect(host.contains("Banana is a fruit."))
        #expect(host.application.fruitPath.value.path == [.detail(1)])
        host.press("esc")                            // back to the list
        #expect(host.contains("Cherry"))
    }

    @Test func anAppletWithoutSheetsPresentsNone() throws {
        let host = try AppletTestHost(FruitApplet(), width: 40, height: 8)
        #expect(host.application.fruitPath.value.sheets.isEmpty)
        #expect(FruitApplet.Sheet.self == NoSheet.self)
    }
}
