import AppletKit

extension WidgetManager {
    /// The gallery's widgets by id. Any applet can hide, show or disable them:
    ///
    /// ```swift
    /// try WidgetManager.gallery.toggle("progress")
    /// ```
    public static let gallery = WidgetManager("gallery", widgets: [
        "name": .visible, "password": .visible, "notes": .visible, "form": .visible,
        "progress": .visible, "spinner": .visible, "table": .visible, "tree": .visible,
    ])
}

/// What the gallery's widgets show and edit; in the store, so other applets can read it.
public struct GalleryState: Sendable, Equatable {
    public var page = 0
    public var name = ""
    public var password = ""
    public var notes = "Notes go here.\nEnter adds a line; Tab moves on."
    public var wrap = true
    public var notify = false
    public var size = 1
    public var fruit = 0
    public var picked: Set<Int> = []
    public var follow = true
    public var log: [String] = ["gallery started"]
    public var row = 0
    public var sort = TableSort(column: nil, ascending: true)
    public var expanded: Set<String> = ["Sources"]
    public var node: String? = "Sources"
    public var ratio = 0.55
    public var scrollPick = 0
    public var progress = 0.35
    public var tick = 0
    public var lastEvent = "none yet"
    public init() {}
}

extension Application {
    public var gallery: State<GalleryState> { state(initial: GalleryState(), feature: "Gallery", id: "state") }
}
