/// A todo of a shared list: the item the replicas sync, field by field.
///
/// Trove reads the annotations (comments: they cost nothing at run time); its coder is in
/// `Generated/Todo+Trove.swift`, committed and checked by `.ci/check-generated`. Each
/// field has a number in the coder, which is what sync merges by: two replicas that changed
/// different fields of one todo while offline both keep their change.
// @persistable(collection: "todos")
public struct Todo: Sendable, Equatable {
    /// The key, chosen by whoever adds the todo.
    // @key
    public var id: String
    /// What to do.
    public var title: String
    /// Free text about it.
    public var notes: String = ""
    /// Whether it is done.
    public var isDone: Bool = false
    /// Its priority: higher first.
    public var priority: Int = 0

    /// A todo with every field given.
    public init(id: String, title: String, notes: String = "", isDone: Bool = false, priority: Int = 0) {
        self.id = id
        self.title = title
        self.notes = notes
        self.isDone = isDone
        self.priority = priority
    }
}
