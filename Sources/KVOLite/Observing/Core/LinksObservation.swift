import Foundation
import KVOLiteLocking

/// An observation made of links: triggers on keys of objects, placed by readings of what its
/// value depends on — a chain such as `recipient.postalAddress.street` (a link on every object
/// along it), a derived key's declared inputs, and the keys a getter reads (a computed property
/// observed by typed key path, a derived key declared without `affectedBy`).
///
/// One storage (``TypedLinksObservation``: one lock, one gate for its handler's calls) owns one
/// machine (``LinksStateMachine``, whose *ended* state is the observation's). Each reading runs
/// with no lock held, then places its links in generation order with the lock held; links no
/// longer wanted are detached after unlocking. A change through a link that reads again (a
/// relationship, an input found by reading) reads again before the value is delivered;
/// replaced intermediates lose their links, so they are neither notified nor retained. A `nil`
/// relationship cuts a branch; the rest is linked when an object appears.
///
/// No change is lost between a reading and its links: a getter that finds inputs reads each
/// property's change counter with its value (``StorageState``), and placing a new link compares
/// the counter under the property's lock; a set that raced it moved the counter, and the
/// reading is made again (until one places with no set racing it), so the value delivered is
/// read after every such set, without comparing values and without reading twice otherwise.
///
/// One change gives one notification however many links it hits: `old` is read at will-time
/// (through the old objects), `new` at did-time (through the new ones, or by the reading that
/// found the inputs). An observation of a to-many key itself (no operator, not derived) gets
/// its insertions, removals and replacements with indexes and elements; everything else gets
/// settings of whole values.
///
/// This base is what links call (``ChangeFrame``), without the value's type.
class LinksObservation: Observation, @unchecked Sendable {
  // @unchecked: immutable.
  let order: UInt64
  let options: ObservingOptions

  init(options: ObservingOptions) {
    order = nextRegistrationOrder()
    self.options = options
    super.init()
  }

  /// Will-time, once per change event: reads the old value and sends the prior notification.
  /// For an exact to-many change, `keyOld` is the removed or replaced elements. Returns the old
  /// value, boxed, for ``didChange(rereads:kind:indexes:old:keyNew:)``.
  func willChange(kind: KeyValueChangeKind, indexes: IndexSet?, keyOld: Any?) -> Any? {
    fatalError("abstract")
  }

  /// Did-time: reads the links again if the change came through a link that `rereads`, reads
  /// the new value, notifies. For an exact to-many change, `keyNew` is the inserted or
  /// replacing elements.
  func didChange(
    rereads: Bool, kind: KeyValueChangeKind, indexes: IndexSet?, old: Any?, keyNew: Any?
  ) { fatalError("abstract") }
}
