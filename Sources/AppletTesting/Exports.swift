// `import AppletTesting` is all a test file needs: it brings AppletKit (the store, views, the host)
// along. Every module re-exported here is a target of the `AppletTesting` product (Package.swift).
@_exported import AppletKit
@_exported import TerminalEmulator
