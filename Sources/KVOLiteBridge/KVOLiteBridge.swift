// Where key-value observing meets Combine: publisher(for:), values(for:), observation tokens
// as Cancellables, ObservableBox, Binding and the two-way binding of a model key path to a
// @Published property. Importing this module imports KVOLite and Combine (the shim: Apple's
// where it exists, KVOLite's elsewhere), which is all MVVM code needs.

@_exported import KVOLite
@_exported import KVOLiteCombineShim
