/// One implementation under test with a secondary index of the users: the `age` of each user
/// (not unique) and its `email` (unique), kept in step with every write inside the write
/// transaction, in its own database file with the same settings as ``BenchmarkStore``'s.
///
/// Queries return the matching users, decoded, each query in its own read transaction; the
/// harness checksums them.
protocol IndexedBenchmarkStore: AnyObject {
    /// Opens the store in `directory`, creating its database file, its schema and its index.
    init(directory: String) throws

    /// Inserts every user, in one transaction, maintaining the index.
    func insert(_ users: [User]) throws
    /// The users whose age is `age`, in one read transaction.
    func users(age: Int) throws -> [User]
    /// The users whose age is in `ages`, in one read transaction.
    func users(ages: Range<Int>) throws -> [User]
    /// The first `limit` users whose age is `age`, in key order, in one read transaction.
    func page(age: Int, limit: Int) throws -> [User]
    /// The first `limit` users whose age is in `ages`, in key order, in one read transaction.
    func page(ages: Range<Int>, limit: Int) throws -> [User]
    /// The first `limit` users whose age is `age`, in the order of their emails, in one read
    /// transaction: an equality sorted by a second column.
    func pageSortedByEmail(age: Int, limit: Int) throws -> [User]
    /// The sum of the ages of the users whose age is in `ages`, and their number per age, by age,
    /// in one read transaction, from the index alone: no user is decoded.
    func ageAggregates(ages: Range<Int>) throws -> AgeAggregates
    /// Replaces existing users, in one transaction, maintaining the index.
    func update(_ users: [User]) throws
    /// Removes the index, untimed, so that ``addIndex()`` builds it from the stored users.
    func dropIndex() throws
    /// Adds the index to a database that holds users without it: the first registration, which
    /// fills it from every stored user.
    func addIndex() throws
    /// Closes the database, untimed, for ``reopen()``.
    func close() throws
    /// Opens the database again with the index unchanged: what an application does at launch.
    func reopen() throws
}

/// What ``IndexedBenchmarkStore/ageAggregates(ages:)`` returns: the sum of the ages, and the
/// number of users of each age, by age.
struct AgeAggregates: Equatable {
    var sum: Int
    var counts: [AgeCount]
}

/// The number of users of one age.
struct AgeCount: Equatable {
    var age: Int
    var count: Int
}
