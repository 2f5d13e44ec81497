// The store's clients see what it is built on (the process environment, atomic files, the clock
// on the main queue) with `import AppletState`; every product that offers AppletState lists it.
@_exported import AppletSupport
