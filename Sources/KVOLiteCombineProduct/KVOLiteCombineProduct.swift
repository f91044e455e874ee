// The `Combine` product's own module, with nothing in it: the product exists for its
// dependency, the `Combine` module, which it brings only on the platforms without Apple's
// Combine (see Package.swift). On Apple's platforms it brings nothing, and `import Combine`
// imports Apple's framework.
