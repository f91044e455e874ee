import KVOLite
import Observation
import Synchronization
import Testing

/// A class whose instances are compared by identity, and one that is `Equatable` (every
/// instance equal), for the sets below.
final class Token: @unchecked Sendable {}
final class AnyBadge: Equatable, @unchecked Sendable {
  static func == (lhs: AnyBadge, rhs: AnyBadge) -> Bool { true }
}

/// A value that is not `Equatable`.
struct Frame: Sendable {
  var width = 0
}

/// The toolchain's `@Observable`, the reference.
@Observable final class ObservableSettings: @unchecked Sendable {
  var text = "a"
  var token = Token()
  var badge = AnyBadge()
  var frame = Frame()
  var note: String? = nil
  var ratio = 0.0
}

/// The same properties in a KVOLite model that is `Observable`.
final class KVOSettings: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var text = "a"
  @Observed var token = Token()
  @Observed var badge = AnyBadge()
  @Observed var frame = Frame()
  @Observed var note: String? = nil
  @Observed var ratio = 0.0
}

/// A property declared with a generic parameter, in each kind of model.
@Observable final class ObservableBox<Item>: @unchecked Sendable {
  var item: Item
  init(_ item: Item) { self.item = item }
}
final class KVOBox<Item>: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var item: Item
  init(_ item: Item) { self.item = item }
}

/// Swift Observation's `onChange` for a set of an equal value, as the toolchain's `@Observable`
/// decides it: not called when an `Equatable` value is set equal (`==`), or the same instance of
/// a class (`===`); called for any other set. Each case is run on an `@Observable` class and on
/// a KVOLite model, and the calls compared; KVOLite's own observers hear of every set.
@Suite("Swift Observation: sets of an equal value")
struct EqualValueSetTests {
  /// A set, as each model takes it.
  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let read: @Sendable (ObservableSettings, KVOSettings) -> Void
    let observable: @Sendable (ObservableSettings) -> Void
    let kvo: @Sendable (KVOSettings) throws -> Void
    /// Whether `onChange` is called (what `@Observable` does).
    let calls: Bool
  }

  static let token = Token()

  static let cases: [Case] = [
    Case(
      testDescription: "an Equatable value set equal",
      read: {
        _ = $0.text
        _ = $1.text
      },
      observable: { $0.text = "a" }, kvo: { $0.text = "a" }, calls: false),
    Case(
      testDescription: "an Equatable value set different",
      read: {
        _ = $0.text
        _ = $1.text
      },
      observable: { $0.text = "b" }, kvo: { $0.text = "b" }, calls: true),
    Case(
      testDescription: "a class instance set again",
      read: {
        _ = $0.token
        _ = $1.token
      },
      observable: { $0.token = $0.token }, kvo: { $0.token = $0.token }, calls: false),
    Case(
      testDescription: "a class set to another instance",
      read: {
        _ = $0.token
        _ = $1.token
      },
      observable: { $0.token = Token() }, kvo: { $0.token = Token() }, calls: true),
    Case(
      testDescription: "an Equatable class set to an equal instance",
      read: {
        _ = $0.badge
        _ = $1.badge
      },
      observable: { $0.badge = AnyBadge() }, kvo: { $0.badge = AnyBadge() }, calls: false),
    Case(
      testDescription: "a value that is not Equatable set the same",
      read: {
        _ = $0.frame
        _ = $1.frame
      },
      observable: { $0.frame = Frame() }, kvo: { $0.frame = Frame() }, calls: true),
    Case(
      testDescription: "an optional set nil again",
      read: {
        _ = $0.note
        _ = $1.note
      },
      observable: { $0.note = nil }, kvo: { $0.note = nil }, calls: false),
    Case(
      testDescription: "nan set nan (not equal to itself)",
      read: {
        $0.ratio = .nan
        $1.ratio = .nan
        _ = $0.ratio
        _ = $1.ratio
      },
      observable: { $0.ratio = .nan }, kvo: { $0.ratio = .nan }, calls: true),
    Case(
      testDescription: "an equal value set by key-value coding",
      read: {
        _ = $0.text
        _ = $1.text
      },
      observable: { $0.text = "a" }, kvo: { try $0.setValue("a", forKey: "text") }, calls: false),
    Case(
      testDescription: "a different value set by key-value coding",
      read: {
        _ = $0.text
        _ = $1.text
      },
      observable: { $0.text = "c" }, kvo: { try $0.setValue("c", forKey: "text") }, calls: true),
    Case(
      testDescription: "an equal number set from text",
      read: {
        _ = $0.ratio
        _ = $1.ratio
      },
      observable: { $0.ratio = 0 }, kvo: { try $0.setValue(fromText: "0.0", forKeyPath: "ratio") },
      calls: false),
  ]

  @Test("onChange as @Observable calls it", arguments: cases)
  func equalValues(_ test: Case) throws {
    let reference = ObservableSettings()
    let model = KVOSettings()
    // Each model read by a tracking of its own (the read may set up the value first).
    let referenceCalls = Atomic<Int>(0)
    let modelCalls = Atomic<Int>(0)
    withObservationTracking {
      test.read(reference, KVOSettings())
    } onChange: {
      referenceCalls.add(1, ordering: .relaxed)
    }
    withObservationTracking {
      test.read(ObservableSettings(), model)
    } onChange: {
      modelCalls.add(1, ordering: .relaxed)
    }
    test.observable(reference)
    try test.kvo(model)
    #expect((referenceCalls.load(ordering: .relaxed) == 1) == test.calls, "@Observable")
    #expect(modelCalls.load(ordering: .relaxed) == referenceCalls.load(ordering: .relaxed))
  }

  /// The documented difference: `@Observable` chooses by the declared type (a generic
  /// parameter: every set fires); `@Observed` sees the type at run time (`Int`: compared).
  @Test("a property of a generic parameter is compared as the type it stands for")
  func genericParameter() {
    let reference = ObservableBox(1)
    let model = KVOBox(1)
    let referenceCalls = Atomic<Int>(0)
    let modelCalls = Atomic<Int>(0)
    withObservationTracking {
      _ = reference.item
    } onChange: {
      referenceCalls.add(1, ordering: .relaxed)
    }
    withObservationTracking {
      _ = model.item
    } onChange: {
      modelCalls.add(1, ordering: .relaxed)
    }
    reference.item = 1
    model.item = 1
    #expect(referenceCalls.load(ordering: .relaxed) == 1)
    #expect(modelCalls.load(ordering: .relaxed) == 0)
    model.item = 2
    #expect(modelCalls.load(ordering: .relaxed) == 1)
  }

  @Test("KVOLite's observers and Combine hear every set, equal or not")
  func keyValueObserversHearEverySet() throws {
    let model = KVOSettings()
    let heard = Atomic<Int>(0)
    let token = model.observe(\.text, options: [.new]) { _, _ in heard.add(1, ordering: .relaxed) }
    withObservationTracking {
      _ = model.text
    } onChange: {
    }
    model.text = "a"
    try model.setValue("a", forKey: "text")
    model.text = "a"
    #expect(heard.load(ordering: .relaxed) == 3)
    token.invalidate()
  }
}
