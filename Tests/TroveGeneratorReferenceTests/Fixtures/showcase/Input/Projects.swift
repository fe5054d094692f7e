import Foundation

// Fields whose types are typealiases. trove-gen reads text and does not know what a typealias
// stands for; the generated schema passes each field's Swift type too, and the runtime records
// what it resolves to, so that the `trove` command reads these fields by their real types.

/// The labels of a project: a typealias of a standard collection, declared at file scope.
typealias Tags = [String]

/// When something is due: a typealias of a type the runtime encodes.
typealias DueDate = Date

/// The milestones of a project: a typealias of an array of an annotated type.
typealias Milestones = [Milestone]

/// A project, keyed by its own `ID`, a typealias of `String`.
// @persistable(collection: "projects")
struct Project: Sendable, Equatable {
    typealias ID = String

    var id: ID
    var tags: Tags
    var milestones: Milestones = []
    var due: DueDate?
    /// Neighbors by key: a dictionary whose key type is a typealias.
    var related: [Project.ID: Int] = [:]
}

/// A step of a project.
// @coded
struct Milestone: Sendable, Equatable {
    var title: String
    var due: DueDate
}

/// A task: refers to its project by `Project.ID`.
// @persistable(collection: "tasks")
struct ProjectTask: Sendable, Equatable {
    var id: Int
    var project: Project.ID
    var labels: Tags?
}
