extension Package {
  /// The package the editor starts on when no file is given:
  /// `Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug`.
  public static func sample() -> Package {
    Package(
      recipient: Person(
        firstName: "Ann", lastName: "Smith",
        postalAddress: PostalAddress(
          street: "1 Main St", city: "Springfield", postalCode: "12345", country: "USA")),
      sender: Person(
        firstName: "Bob", lastName: "Jones",
        postalAddress: PostalAddress(
          street: "9 Elm Rd", city: "Shelbyville", postalCode: "67890", country: "USA")),
      contents: [
        try! PackageContent(title: "Books", quantity: 2, weight: 0.5),
        try! PackageContent(title: "Mug", quantity: 1, weight: 0.5),
      ])
  }
}
