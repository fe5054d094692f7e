/// The removals and notices that relationships' delete rules decided in the current write
/// transaction and that have not run yet.
///
/// Rules only queue: the first removal that fires one runs the queue
/// (``ConnectionCore/runCascade()``), and removals that the queued ones fire in turn join it.
/// So a cascade runs as a loop at a bounded depth of calls, however long its chain, and no
/// extension is in the middle of a statement while another write runs.
///
/// The queue is the transaction's, shared by every relationship extension (a removal one fires
/// can fire another's rules): ``ConnectionCore/cascade`` keeps it as a transaction local.
final class RelationshipCascade {
    /// Items to remove, in order, each with its row id when the rule that queued it knew it;
    /// those before ``nextRemoval`` are done.
    var removals: [(collection: String, row: RowRemoval)] = []
    var nextRemoval = 0
    /// Notices to deliver once no removal is left; those before ``nextNotice`` are done.
    var notices: [(RelationshipNotice, RelationshipNotifier)] = []
    var nextNotice = 0
    /// Whether a ``ConnectionCore/runCascade()`` is running on the connection.
    var isRunning = false
}

extension ConnectionCore {
    /// The current read-write transaction's queue of removals and notices.
    var cascade: RelationshipCascade {
        transactionLocal(RelationshipCascade.init)
    }

    /// Runs the queued removals through the write funnel, each an ordinary removal that reaches
    /// every extension and the changeset, then delivers the queued notices, until both queues are
    /// empty. Does nothing when called from inside the loop: the loop picks up what was queued.
    ///
    /// The removals queued one after the other in one collection go through the funnel together
    /// (``removeRows(_:in:removed:)``), so that the extensions take them as one batch; those that
    /// batch queues in turn make the next.
    ///
    /// An item already gone is skipped: that is how a cycle ends.
    func runCascade() throws {
        // Nothing queued in this transaction yet: no queue to run.
        guard let cascade = existingTransactionLocal(RelationshipCascade.self), !cascade.isRunning else { return }
        cascade.isRunning = true
        defer { removeTransactionLocal(RelationshipCascade.self) }
        while true {
            if cascade.nextRemoval < cascade.removals.count {
                let start = cascade.nextRemoval
                let collection = cascade.removals[start].collection
                var end = start + 1
                while end < cascade.removals.count, cascade.removals[end].collection == collection { end += 1 }
                let batch = cascade.removals[start..<end].map(\.row)
                if end == cascade.removals.count {
                    // Nothing left after the batch: the removals it queues start the queue again.
                    cascade.removals.removeAll(keepingCapacity: true)
                    cascade.nextRemoval = 0
                } else {
                    cascade.nextRemoval = end
                }
                try removeRows(batch, in: collection) { key in evict(key: key, collection: collection) }
            } else if cascade.nextNotice < cascade.notices.count {
                let (notice, notifier) = cascade.notices[cascade.nextNotice]
                cascade.nextNotice += 1
                changes.recordRelationshipNotice(notice)
                let transaction = ReadWriteTransaction(core: self)
                defer { transaction.invalidate() }
                try notifier.deliver(notice, in: transaction)
            } else {
                return
            }
        }
    }
}
