extension ReadWriteTransaction {
    /// Runs `body` with the context of the registered extension `name` in this transaction, to
    /// write the extension's own tables outside of a write event: what an extension of your own
    /// offers for its users to call (a scheduled action recorded as done, an entry of a manual
    /// list moved), as the built-in manual views do.
    ///
    /// ```swift
    /// try connection.write { tx in
    ///     try tx.withExtensionContext(named: "note_count") { context in
    ///         try context.execute("UPDATE trove_ext_note_count SET total = 0")
    ///         context.recordChange("reset")
    ///     }
    /// }
    /// ```
    ///
    /// The context is held to the extension's tables as in its own methods (see
    /// ``ExtensionContext``); what it writes commits or rolls back with the transaction, and its
    /// ``ExtensionContext/transactionState(_:)`` is the one the extension's write events share.
    /// Writing the tables this way changes no item: the commit's changeset lists the extension
    /// only when `body` records a change with ``ExtensionContext/recordChange(_:)``.
    ///
    /// - Parameters:
    ///   - name: The name of a registered extension.
    ///   - body: Runs with the context; the context is valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: ``TroveError`` (``TroveError/Code/extensionFailed``) when no extension of that
    ///   name is registered on this database, or it is stale; what `body` throws.
    public func withExtensionContext<Result>(named name: String, _ body: (ExtensionContext) throws -> Result) throws
        -> Result
    {
        let core = checkedCore
        guard let definition = core.registeredExtension(named: name) else {
            throw TroveError.notRegistered(extension: name)
        }
        try core.checkQueryable(name, fingerprint: definition.implementation.fingerprint)
        return try body(ExtensionContext(core: core, extension: definition))
    }
}
