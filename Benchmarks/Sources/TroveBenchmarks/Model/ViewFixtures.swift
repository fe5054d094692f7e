/// The data of the views benchmark (issue 15): messages spread evenly over conversations, a
/// sequence of single-message updates that move each message to a new place in its conversation
/// (one in ten to another conversation), and the brute-force model of the result.
struct ViewFixtures {
    /// The messages before the updates.
    let messages: [Message]
    /// Every conversation, sorted.
    let groups: [String]
    /// The updates, in order: each the whole message after the change.
    let updates: [Message]
    /// The conversation of each update's message before the update.
    let previousGroups: [String]
    /// The keys of each conversation after every update, in the view's order (timestamp, then key).
    let finalKeys: [String: [String]]
    /// The conversations whose rows 0..<50 the read workload reads, in order.
    let readGroups: [String]

    /// One in `crossGroupEvery` updates moves its message to another conversation.
    static let crossGroupEvery = 10
    /// The rows read from the top of a conversation.
    static let pageLength = 50

    init(count: Int, groupCount: Int, updateCount: Int, readCount: Int) {
        var random = SplitMix64(seed: 15)
        let groups = (0..<groupCount).map { Self.group($0) }
        var messages: [Message] = []
        messages.reserveCapacity(count)
        for index in 0..<count {
            messages.append(
                Message(
                    id: "m\(100_000_000 + index)", conversation: groups[index % groupCount],
                    timestamp: Self.timestamp(&random),
                    text: "message \(index): " + String(repeating: "x", count: Int(random.next() % 60) + 20)))
        }
        var current = messages
        var updates: [Message] = []
        var previousGroups: [String] = []
        for step in 0..<updateCount {
            let index = Int(random.next() % UInt64(count))
            var message = current[index]
            previousGroups.append(message.conversation)
            message.timestamp = Self.timestamp(&random)
            if groupCount > 1, step % Self.crossGroupEvery == Self.crossGroupEvery - 1 {
                let offset = 1 + Int(random.next() % UInt64(groupCount - 1))
                message.conversation = groups[(groups.firstIndex(of: message.conversation)! + offset) % groupCount]
            }
            current[index] = message
            updates.append(message)
        }
        var byGroup: [String: [Message]] = [:]
        for message in current { byGroup[message.conversation, default: []].append(message) }
        finalKeys = byGroup.mapValues { list in
            list.sorted { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }.map(\.id)
        }
        var order = groups
        order.shuffle(using: &random)
        readGroups = (0..<readCount).map { order[$0 % order.count] }
        self.messages = messages
        self.groups = groups
        self.updates = updates
        self.previousGroups = previousGroups
    }

    static func group(_ index: Int) -> String { "c\(1_000 + index)" }

    /// A time in a range so wide that two messages practically never share one (ties are
    /// ordered by key anyway, in the view and in the SQL).
    private static func timestamp(_ random: inout SplitMix64) -> Int {
        Int(random.next() % 1_000_000_000_000)
    }
}
