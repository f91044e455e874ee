// Not part of any target: .ci/run compiles it against StandInCombine and StandInBackfill (as
// the CombinePort package builds them) and expects the build to fail with
// "ambiguous use of 'values'": the stand-in declares `values` without `@_disfavoredOverload`,
// the backfilling library declares it too, and this file sees both. KVOLite's own members
// that libraries backfill are disfavored overloads, so that the same code, importing Combine
// and MyLibrary, builds and calls the library's (CombinePort's main.swift checks which ran).
import StandInBackfill
import StandInCombine

print(Just(4).values)
