/// The sections of a view, following the database, with their changes: see
/// ``Database/observe(_:mappings:)-(View<Item>,_)``.
///
/// `Sendable`: it holds only the underlying observation. Each iteration is an observation of its
/// own; an iterator belongs to the loop that made it.
public struct ViewSectionsObservation: AsyncSequence, Sendable {
    /// The element: the sections and the changes since the element before.
    public typealias Element = ViewSectionsUpdate
    /// The error: a ``TroveError`` when reading fails.
    public typealias Failure = any Error

    let values: DatabaseObservation<ViewSections>

    /// Starts an observation.
    ///
    /// - Returns: An iterator that yields the sections now, then after each commit that changed
    ///   them.
    public func makeAsyncIterator() -> Iterator {
        Iterator(values: values.makeAsyncIterator())
    }

    /// The iterator of a ``ViewSectionsObservation``.
    public struct Iterator: AsyncIteratorProtocol {
        var values: ObservationIterator<ViewSections>
        var previous: ViewSections?

        /// The sections now on the first call; then the sections after the next commits that
        /// changed them, with the changes since the previous element.
        ///
        /// - Returns: The update, or `nil` when the iterating task is cancelled.
        /// - Throws: A ``TroveError`` when reading fails; the observation ends then.
        public mutating func next() async throws -> ViewSectionsUpdate? {
            try await next(isolation: nil)
        }

        /// The same as ``next()``, resuming on `actor`.
        ///
        /// - Parameter actor: The actor of the iterating context.
        /// - Returns: The update, or `nil` when the iterating task is cancelled.
        /// - Throws: A ``TroveError`` when reading fails.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> ViewSectionsUpdate?
        {
            guard let sections = try await values.next(isolation: actor) else { return nil }
            defer { previous = sections }
            return ViewSectionsUpdate(sections: sections, changes: previous.map { sections.changes(since: $0) })
        }
    }
}

// Explicit non-conformance to Sendable: an iterator belongs to the loop that made it.
@available(*, unavailable)
extension ViewSectionsObservation.Iterator: Sendable {}
