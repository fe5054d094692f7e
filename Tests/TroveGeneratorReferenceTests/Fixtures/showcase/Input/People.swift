/// Three versions of one model sharing the collection "people", as three releases of an app
/// declare it. Each version reads what the others write, and writes it back without losing what
/// it does not know: a renamed field keeps the identity it was first stored with (`fullName`), and
/// a typed write keeps the fields its version does not know (`legacy`, `email`, `phone`).

/// Version 1.
// @persistable(collection: "people")
struct PersonV1: Sendable, Equatable {
    var id: String
    var fullName: String
    var legacy: String = ""
    var address: PostalAddressV1?
    // @metadata
    var stats: PersonStatsV1?
}

/// Version 2: `fullName` renamed `displayName`, `legacy` removed, `email` added with a default,
/// `zip` added to the address and `lastVisit` to the metadata.
// @persistable(collection: "people")
struct PersonV2: Sendable, Equatable {
    var id: String
    // @renamed(from: "fullName")
    var displayName: String
    var email: String = ""
    var address: PostalAddressV2?
    // @metadata
    var stats: PersonStatsV2?
}

/// Version 3: renamed again (`fullName` → `displayName` → `name`: the first `@renamed` is the
/// name the field was first stored under, the others follow oldest first), `phone` added.
// @persistable(collection: "people")
struct PersonV3: Sendable, Equatable {
    var id: String
    // @renamed(from: "fullName")
    // @renamed(from: "displayName")
    var name: String
    var email: String = ""
    var phone: String?
    var address: PostalAddressV2?
    // @metadata
    var stats: PersonStatsV2?
}

/// The address of version 1.
// @coded
struct PostalAddressV1: Sendable, Equatable {
    var city: String
}

/// The address of versions 2 and 3: `zip` added.
// @coded
struct PostalAddressV2: Sendable, Equatable {
    var city: String
    var zip: String = ""
}

/// The metadata of version 1.
// @coded
struct PersonStatsV1: Sendable, Equatable {
    var visits: Int
}

/// The metadata of versions 2 and 3: `lastVisit` added.
// @coded
struct PersonStatsV2: Sendable, Equatable {
    var visits: Int
    var lastVisit: String?
}
