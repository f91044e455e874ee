// Foundation's names for KVOLite's observing types, so that observing code written against
// `NSObject`'s key-value observing compiles unchanged: `NSKeyValueObservation`,
// `NSKeyValueObservingOptions`, `NSKeyValueObservedChange` and `NSKeyValueChange` (and
// `NSKeyValueChangeKey`, in its own file).
//
// Declared only where Foundation lacks them (swift-corelibs-foundation declares none of them:
// Linux, Windows, Android, WASI). On Apple's platforms Foundation declares them for `NSObject`,
// and KVOLite, which imports Foundation, would shadow them in every file that imports both;
// there Foundation's own stay the ones a file sees, and code that observes KVOLite models uses
// KVOLite's names (``ObservationToken``, ``ObservingOptions``, ``KeyValueChange``,
// ``KeyValueChangeKind``), which are the same types.
#if !canImport(ObjectiveC)
  /// Foundation's name for ``ObservationToken``: what `observe(_:options:changeHandler:)`
  /// returns. Keep it to keep the observation; ``ObservationToken/invalidate()`` ends it.
  public typealias NSKeyValueObservation = ObservationToken

  /// Foundation's name for ``ObservingOptions``: `.new`, `.old`, `.initial`, `.prior`, with
  /// Foundation's raw values.
  public typealias NSKeyValueObservingOptions = ObservingOptions

  /// Foundation's name for ``KeyValueChange``, the change a typed observation's handler gets:
  /// `kind`, `oldValue`, `newValue`, `indexes`, `isPrior`.
  public typealias NSKeyValueObservedChange<Value> = KeyValueChange<Value>

  /// Foundation's name for ``KeyValueChangeKind``: `.setting`, `.insertion`, `.removal`,
  /// `.replacement`, with Foundation's raw values.
  public typealias NSKeyValueChange = KeyValueChangeKind
#endif

extension KeyValueChange {
  /// How the value changed: Foundation's `NSKeyValueObservedChange.Kind`.
  public typealias Kind = KeyValueChangeKind
}
