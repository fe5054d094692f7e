// The errors of a view whose pages and items disagree. Every write updates the pages in the same
// transaction as the items, so between two writes they always agree: a page that names a row the
// items do not have is damage (a file changed behind Trove's back, a lost page), never the effect
// of a write, and the error says so, with a way out.

extension TroveError {
    /// The view `view` lists a row whose item is in none of the collections it follows.
    ///
    /// - Parameters:
    ///   - view: The name of the view.
    ///   - collections: The collections the view follows (its only one, for a ``View``).
    ///   - key: The key of the row, when it is known.
    ///   - group: The group of the row, when it is known.
    ///   - index: The index of the row in its group, when it is known.
    /// - Returns: An error of code ``Code/corruptDatabase``.
    static func viewRowWithoutItem(
        view: String, collections: [String], key: String? = nil, group: String? = nil, index: Int? = nil
    ) -> TroveError {
        var place = ""
        switch (group, index) {
        case (let group?, let index?): place = " at index \(index) of the group '\(group)'"
        case (let group?, nil): place = " in the group '\(group)'"
        default: break
        }
        let row = key.map { "the item '\($0)'" } ?? "an item"
        let names = collections.map { "'\($0)'" }
        let whereNot =
            names.count == 1
            ? "in the collection \(names[0])" : "in any of its collections (\(names.joined(separator: ", ")))"
        return TroveError(
            code: .corruptDatabase,
            message:
                "The view '\(view)' is damaged: it lists \(row)\(place), which is not \(whereNot). Register the view with a new version to rebuild it.",
            collection: collections.count == 1 ? collections[0] : nil, key: key, extensionName: view)
    }

    /// The pages of the view `view` contradict each other (a page is missing, or a row is not
    /// where the view says it is).
    ///
    /// - Parameters:
    ///   - view: The name of the view.
    ///   - problem: What is wrong, as a sentence fragment ("a page of its rows is missing").
    /// - Returns: An error of code ``Code/corruptDatabase``.
    static func viewDamaged(_ view: String, _ problem: String) -> TroveError {
        TroveError(
            code: .corruptDatabase,
            message:
                "The view '\(view)' is damaged: \(problem). Register the view with a new version to rebuild it.",
            extensionName: view)
    }
}
