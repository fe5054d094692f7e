import Foundation

/// The data of a run: the same users, keys and changes for every implementation, made from a
/// fixed seed so that every run stores the same bytes.
struct Fixtures {
    /// N users, in key order.
    let users: [User]
    /// Every key, shuffled: the order of point reads.
    let readKeys: [String]
    /// 10% of the users (every tenth), changed: the update workload.
    let updates: [User]
    /// The keys of another 10% of the users: the delete workload.
    let deleteKeys: [String]
    /// Users changed one transaction at a time (1,000, or a tenth of N when N < 10,000), none of
    /// them deleted.
    let singleWrites: [User]

    /// The ages of the equality queries of the index workloads: each is the age of about 1% of
    /// the users (see `age(random:)`).
    let equalityAges: [Int] = Array(68..<78)
    /// The age ranges of the range queries of the index workloads: each holds about 1% of the
    /// users (two ages of 0.5%).
    let ageRanges: [Range<Int>] = stride(from: 88, to: 98, by: 2).map { $0..<($0 + 2) }
    /// The ages of the 1,000 limited queries of the index workloads (the first 20 users of an
    /// age, or of an age range from it to the next two), over every age in turn.
    let pageAges: [Int] = (0..<1_000).map { 18 + $0 % 78 }
    /// The number of users a limited query returns.
    let pageLimit = 20

    init(count: Int) {
        var random = SplitMix64(seed: 0x5452_4F56)
        let users = (0..<count).map { Fixtures.makeUser(index: $0, random: &random) }
        self.users = users
        var keys = users.map(\.id)
        keys.shuffle(using: &random)
        readKeys = keys
        updates = stride(from: 0, to: count, by: 10).map { Fixtures.changed(users[$0], random: &random) }
        deleteKeys = stride(from: 5, to: count, by: 10).map { users[$0].id }
        singleWrites = stride(from: 1, to: count, by: 10).prefix(min(1_000, count / 10)).map {
            Fixtures.changed(users[$0], random: &random)
        }
    }

    private static let firstNames = [
        "Ada", "Alan", "Barbara", "Claude", "Donald", "Edsger", "Frances", "Grace", "Hedy", "John", "Katherine",
        "Leslie", "Margaret", "Niklaus", "Radia", "Tim",
    ]
    private static let lastNames = [
        "Lovelace", "Turing", "Liskov", "Shannon", "Knuth", "Dijkstra", "Allen", "Hopper", "Lamarr", "Backus",
        "Johnson", "Lamport", "Hamilton", "Wirth", "Perlman", "Berners-Lee",
    ]
    private static let tagWords = [
        "admin", "beta", "early-adopter", "newsletter", "premium", "mobile", "desktop", "europe", "americas",
        "asia", "verified", "support",
    ]
    /// 2024-01-01T00:00:00Z.
    private static let epoch = Date(timeIntervalSince1970: 1_704_067_200)

    static func key(index: Int) -> String {
        let digits = String(index)
        return "user-" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    static func makeUser(index: Int, random: inout SplitMix64) -> User {
        let first = firstNames[Int(random.next() % UInt64(firstNames.count))]
        let last = lastNames[Int(random.next() % UInt64(lastNames.count))]
        var tags: [String] = []
        for _ in 0..<3 {
            tags.append(tagWords[Int(random.next() % UInt64(tagWords.count))])
        }
        return User(
            id: key(index: index),
            name: "\(first) \(last)",
            email: "\(first.lowercased()).\(last.lowercased())\(index)@example.com",
            age: age(random: &random),
            score: Double(random.next() % 1_000_000) / 100,
            tags: tags,
            created: epoch.addingTimeInterval(Double(random.next() % 31_536_000)),
            metadata: UserStats(
                visits: Int(random.next() % 10_000),
                lastSeen: epoch.addingTimeInterval(Double(random.next() % 31_536_000))))
    }

    /// An age from 18 to 97, drawn so that the index queries have results of a known size:
    /// 18 to 67 are each the age of 1.5% of the users, 68 to 87 of 1% each, 88 to 97 of 0.5% each.
    /// One draw, as the uniform age of earlier versions, so that the other fields are unchanged.
    private static func age(random: inout SplitMix64) -> Int {
        let draw = Int(random.next() % 400)
        switch draw {
        case ..<300: return 18 + draw / 6
        case ..<380: return 68 + (draw - 300) / 4
        default: return 88 + (draw - 380) / 2
        }
    }

    private static func changed(_ user: User, random: inout SplitMix64) -> User {
        var user = user
        user.score = Double(random.next() % 1_000_000) / 100
        user.age += 1
        user.metadata?.visits += 1
        user.metadata?.lastSeen.addTimeInterval(86_400)
        return user
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}

/// A failure of the benchmark itself, with a message.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
