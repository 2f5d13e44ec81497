// `import AppletKit` is the one import an applet, its Interface target, its tests and an app write:
// it brings the store, the views and widgets, and the terminal types along.
//
// Every module re-exported here is also a target of the `AppletKit` product (see Package.swift), so
// a client's build depends on each of them directly and is rebuilt when any of them changes.
@_exported import AppletLogic
@_exported import AppletNavigation
@_exported import AppletState
@_exported import AppletUI
@_exported import Terminal
