extension ReadWriteTransaction {
    /// Changes the grouping or the sort of the registered view of `view`'s name to `view`'s, in
    /// this transaction: its rows are placed again under the new closures, and the commit
    /// reports the row changes of the re-sort in ``Changeset/viewChanges``.
    ///
    /// ```swift
    /// try database.write { tx in
    ///     try tx.redefine(tasksByTitle) // "tasks", version 2, sorted by title
    /// }
    /// ```
    ///
    /// The changes are as few as the re-sort allows: a row that enters or leaves the view is
    /// inserted or removed, a row that changes group is moved, and within a group only the rows
    /// that did not keep their relative order are moved (the rows of a longest run that kept it
    /// stay); a sort that keeps the order reports nothing. Groups that appear or disappear are
    /// reported as for any commit.
    ///
    /// From this call on, the transaction's writes and reads use `view`: read it through `view`,
    /// not through the registered value. The file's registry records the new version in the
    /// transaction, so that a database opened later with `view` finds the view in step (no
    /// rebuild). The commit makes `view` the registered view of this database; a transaction that
    /// throws leaves the registered view, its rows and the file as they were. After the commit,
    /// reads through the former value throw, as after a registration of another version. The
    /// registered filtered views of the view are rebuilt over `view` in the transaction, as a
    /// registration of `view` would.
    ///
    /// Prefer it to ``Database/register(_:)-(DatabaseExtension)`` with a new version when the
    /// app changes the order of a list on screen: registration rebuilds the view in a
    /// transaction of its own and reports no row changes.
    ///
    /// - Parameter view: The new definition: the same name, item type and storage as the
    ///   registered view, whether it starts empty too, and another version (as for any change of
    ///   a view's closures). A view that starts empty keeps the rows it has, placed again; any
    ///   other view places every stored item its filter and grouping accept.
    /// - Throws: ``TroveError`` with code ``TroveError/Code/extensionFailed`` when no view of that
    ///   name is registered; when the registered extension of that name is another kind of
    ///   extension, a view of another item type (so of another collection), a ``ManualView`` (its
    ///   app places the rows), or a filtered view (redefine its parent, or register the filtered
    ///   view again); when `view` is a filtered view, has another storage, starts empty where
    ///   the registered one does not (or the reverse), or has the registered version. Nothing is
    ///   changed then, and the transaction can go on. A failure of SQLite midway fails the
    ///   transaction: its commit throws.
    /// - Complexity: O(n log n) in the items of the view's collection, plus O(log n) page reads
    ///   and writes for each row that moves, enters or leaves.
    public func redefine<Item: Persistable>(_ view: View<Item>) throws {
        let core = checkedCore
        let name = view.name
        guard let registered = core.registeredExtension(named: name) else {
            throw TroveError.cannotRedefine(name, "no view of that name is registered on this database")
        }
        guard let current = (registered.implementation as? ViewImplementation<View<Item>>)?.view else {
            let what =
                registered.implementation.kind == "view" ? "a view of another item type" : "another kind of extension"
            throw TroveError.cannotRedefine(
                name, "the extension registered under that name is \(what): redefine views of \(Item.self) only")
        }
        if current.isManual {
            throw TroveError.cannotRedefine(name, "it is a manual view: its app places the rows, not a sort")
        }
        if current.parentName != nil || view.parentName != nil {
            throw TroveError.cannotRedefine(
                name,
                "filtered views follow their parent: redefine the parent view, or register the filtered view again")
        }
        if current.storage != view.storage {
            throw TroveError.cannotRedefine(
                name, "the new definition has another storage (\(view.storage), registered: \(current.storage))")
        }
        if current.startsEmpty != view.startsEmpty {
            throw TroveError.cannotRedefine(
                name,
                view.startsEmpty
                    ? "the new definition starts empty and the registered view does not"
                    : "the registered view starts empty and the new definition does not"
            )
        }
        if registered.version == view.version {
            throw TroveError.cannotRedefine(
                name,
                "the new definition has the registered version \(view.version): give it another version, as for any change of a view's closures"
            )
        }
        let implementation = ViewImplementation(view: view)
        try core.redefine(view.databaseExtension) { context in
            try implementation.replacePlacement(name: name, in: context) { rowID, group, index in
                try ViewReader(view: view, transaction: self).key(ofRow: rowID, group: group, index: index)
            }
        }
    }
}

extension TroveError {
    /// The view `name` cannot be redefined, for `reason`.
    static func cannotRedefine(_ name: String, _ reason: String) -> TroveError {
        TroveError(
            code: .extensionFailed, message: "The view '\(name)' cannot be redefined: \(reason).",
            extensionName: name)
    }
}
