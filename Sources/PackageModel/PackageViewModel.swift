import KVOLiteBridge

/// The view model of a package editor: what a view shows and edits, mirrored with the model.
///
/// - `firstName` and `lastName` are `@Published` and mirrored both ways with the recipient by a
///   ``/KVOLiteBridge/TwoWayBinding`` each, so a change on either side reaches the other exactly
///   once, with no echo.
/// - `street` is a ``/KVOLiteBridge/Binding`` whose setter replaces the recipient's ``PostalAddress`` by a copy
///   with the new street; an observation of the street sends `objectWillChange` before it
///   changes on the model, however it was changed.
/// - Editing by key path (``setValue(fromText:forKeyPath:)``) takes one route for every key:
///   a value equal to the current one changes nothing; any other goes to the model.
/// - `summary` is kept up to date from observations of what it shows: the names, the street,
///   and the contents, whose totals follow the insertions and removals KVOLite reports (so a
///   change costs the same however many contents there are).
///
/// The view model owns its package and everything it subscribed to; nothing it sets up keeps
/// it alive. Use it from one thread at a time (like a view).
public final class PackageViewModel: ObservableObject {
  /// The edited package.
  public let package: Package
  /// The recipient's first name, mirrored both ways.
  @Published public var firstName = ""
  /// The recipient's last name, mirrored both ways.
  @Published public var lastName = ""
  /// The package's summary line, kept up to date.
  @Published public private(set) var summary = ""
  /// The recipient's street: reading reads the model, writing replaces the postal address.
  public let street: Binding<String>

  private var cancellables = Set<AnyCancellable>()
  private var observations: [ObservationToken] = []
  private var totals = PackageSummary.Totals()
  /// Whether `totals` are within their limits, so that changes can be counted in and out.
  private var totalsAreExact = true

  /// Wires the view model to `package`.
  public init(package: Package) {
    self.package = package
    street = Binding(
      get: { package.recipient.postalAddress.street },
      set: { package.recipient.postalAddress = package.recipient.postalAddress.withStreet($0) })
    do {
      TwoWayBinding.bind(
        \.recipient.firstName, of: package, to: \.firstName, publishedBy: \.$firstName, on: self
      )
      .store(in: &cancellables)
      TwoWayBinding.bind(
        \.recipient.lastName, of: package, to: \.lastName, publishedBy: \.$lastName, on: self
      )
      .store(in: &cancellables)
      let willChange = objectWillChange
      observations.append(
        package.observe(\.recipient.postalAddress.street, options: [.prior]) { _, change in
          if change.isPrior { willChange.send() }
        })
      try observeSummaryInputs()
    } catch {
      // The key paths above are declared by Package, Person and PostalAddress; the model tests
      // pin that they resolve.
      fatalError("PackageViewModel cannot observe its package: \(error)")
    }
  }

  // MARK: - Summary

  private func observeSummaryInputs() throws(KeyValueError) {
    recountTotals()
    for keyPath in ["recipient.fullName", "recipient.postalAddress.street", "sender.fullName"] {
      observations.append(try package.observe(keyPath) { [weak self] _ in self?.updateSummary() })
    }
    observations.append(
      package.observe(\.contents, options: [.old, .new]) { [weak self] package, change in
        guard let self else { return }
        if change.kind != .setting, totalsAreExact,
          let updated = totals.removing(change.oldValue ?? [])?.adding(change.newValue ?? [])
        {
          totals = updated
        } else {
          recountTotals()
        }
        updateSummary()
      })
    updateSummary()
  }

  /// Counts the totals again from the contents (exact unless the contents pass the limits).
  private func recountTotals() {
    let checked = PackageSummary.Totals.checked(package.contents)
    totals = checked ?? PackageSummary.Totals(package.contents)
    totalsAreExact = checked != nil
  }

  private func updateSummary() {
    let recipient = package.recipient
    let text = PackageSummary(
      recipient: recipient.fullName, street: recipient.postalAddress.street,
      sender: package.sender.fullName, totals: totals,
      firstItems: Array(package.contents.prefix(PackageSummary.shownItems))
    ).text
    if text != summary { summary = text }
  }

  // MARK: - Contents

  /// Appends a content line.
  /// - Throws: ``PackageError`` for an invalid title, quantity or weight, or
  ///   ``PackageError/totalsTooLarge`` if the package's totals would pass their limits; nothing
  ///   is added.
  public func addContent(title: String, quantity: Int = 1, weight: Double = 0) throws(PackageError)
  {
    let content = try PackageContent(title: title, quantity: quantity, weight: weight)
    try checkTotals(adding: content)
    contents.append(content)
  }

  /// Throws ``PackageError/totalsTooLarge`` if `content` would take the totals past their
  /// limits.
  private func checkTotals(adding content: PackageContent) throws(PackageError) {
    guard totalsAreExact, totals.adding([content]) != nil else { throw .totalsTooLarge }
  }

  /// Inserts a content line at `index` (which may be the count).
  /// - Throws: ``PackageError`` for an invalid index, or ``PackageError/totalsTooLarge`` if
  ///   the package's totals would pass their limits; nothing changes.
  public func insertContent(_ content: PackageContent, at index: Int) throws(PackageError) {
    try checkTotals(adding: content)
    do {
      try contents.insert(content, at: index)
    } catch {
      throw .noContent(index: index, count: package.contents.count)
    }
  }

  /// Replaces the content line at `index` with `content` (one `replacement` notification).
  /// - Throws: ``PackageError/noContent(index:count:)``, or ``PackageError/totalsTooLarge`` if
  ///   the package's totals would pass their limits; nothing changes.
  public func replaceContent(at index: Int, with content: PackageContent) throws(PackageError) {
    guard package.contents.indices.contains(index) else {
      throw .noContent(index: index, count: package.contents.count)
    }
    guard totalsAreExact,
      totals.removing([package.contents[index]])?.adding([content]) != nil
    else { throw .totalsTooLarge }
    do {
      try contents.replace(at: index, with: content)
    } catch {
      throw .noContent(index: index, count: package.contents.count)
    }
  }

  /// Removes the content line at `index`.
  /// - Throws: ``PackageError/noContent(index:count:)``; nothing changes.
  @discardableResult
  public func removeContent(at index: Int) throws(PackageError) -> PackageContent {
    do {
      return try contents.remove(at: index)
    } catch {
      throw .noContent(index: index, count: package.contents.count)
    }
  }

  private var contents: KeyValueArray<Package, PackageContent> {
    // `contents` is a declared, observed to-many key of Package; the tests pin it.
    package.mutableArrayValue(for: \.contents)
  }
}
