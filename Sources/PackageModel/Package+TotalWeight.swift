extension Package {
  /// The total weight of the contents in kilograms, as the summary shows it: the quantity ×
  /// weight of every line, summed in whole grams (so it is exact; contents past the package's
  /// limits are counted up to them, see ``PackageSummary/Totals``). Reads every line: O(n).
  ///
  /// Key-value coding reads it as `totalWeight`, a derived key that notifies whenever
  /// `contents` changes. It is not `contents.@sum.weight`, which adds the weight of one piece
  /// of each line whatever its quantity.
  public var totalWeight: Double {
    Double(PackageSummary.Totals(contents).grams) / 1000
  }
}
