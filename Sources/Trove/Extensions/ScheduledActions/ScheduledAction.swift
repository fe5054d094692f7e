import Foundation

/// An action an item declares, to run once at a date: expire the item, refresh it, retry its
/// upload (YapDatabase's `YapActionItem`). An ``ActionSchedule`` keeps the actions its items
/// declare, and an ``ActionRunner`` runs them.
///
/// An item declares at most one action of each name: when it lists two, the last one counts.
public struct ScheduledAction: Sendable, Hashable {
    /// The name of the action, which picks its handler in the ``ActionRunner``.
    public var name: String
    /// When the action is due: it runs at this date, or as soon as the runner can after it.
    public var date: Date
    /// How often and when the action is tried again when its handler throws.
    public var retry: RetryPolicy

    /// An action named `name`, due at `date`, tried again after a failure as `retry` says.
    public init(_ name: String, at date: Date, retry: RetryPolicy = .default) {
        self.name = name
        self.date = date
        self.retry = retry
    }
}

/// When an action whose handler threw is tried again: after ``initialDelay`` seconds, then after
/// a delay ``multiplier`` times longer at each new failure, never longer than ``maxDelay``, until
/// it failed ``maxFailures`` times: it is then dropped, and the runner reports it failed.
public struct RetryPolicy: Sendable, Hashable {
    /// The number of failures after which the action is dropped (1: never tried again).
    public var maxFailures: Int
    /// The delay after the first failure, in seconds.
    public var initialDelay: TimeInterval
    /// How much longer each delay is than the one before.
    public var multiplier: Double
    /// The longest delay, in seconds.
    public var maxDelay: TimeInterval

    /// A policy: at most `maxFailures` failures (at least 1), the first delay `initialDelay`
    /// seconds, multiplied by `multiplier` after each failure, up to `maxDelay` seconds.
    public init(maxFailures: Int, initialDelay: TimeInterval, multiplier: Double = 2, maxDelay: TimeInterval = 86_400) {
        self.maxFailures = max(1, maxFailures)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(self.initialDelay, maxDelay)
    }

    /// Five failures at most, tried again after 30 seconds, 1, 2 and 4 minutes.
    public static let `default` = RetryPolicy(maxFailures: 5, initialDelay: 30, multiplier: 2, maxDelay: 3_600)

    /// Never tried again: the first failure drops the action.
    public static let never = RetryPolicy(maxFailures: 1, initialDelay: 0)

    /// The delay before the next try after the `failures`-th failure (from 1), in seconds.
    public func delay(afterFailure failures: Int) -> TimeInterval {
        let exponent = Double(max(0, failures - 1))
        return min(maxDelay, initialDelay * pow(multiplier, exponent))
    }
}

/// An item that declares its own actions: register ``ActionSchedule/init(_:version:)`` for it.
///
/// ```swift
/// extension Upload: ActionScheduling {
///     var scheduledActions: [ScheduledAction] {
///         isSent ? [] : [ScheduledAction("send", at: createdAt, retry: RetryPolicy(maxFailures: 8, initialDelay: 10))]
///     }
/// }
/// ```
public protocol ActionScheduling: Persistable {
    /// The actions the item declares as it is now: a write of the item replaces its actions with
    /// these.
    var scheduledActions: [ScheduledAction] { get }
}

/// An action waiting in an ``ActionSchedule``: what it is, of which item, and how its tries went.
public struct PendingAction: Sendable, Hashable {
    /// The number of this declaration, unique in the schedule: a write of the item declares its
    /// actions anew, under new numbers.
    public var declaration: Int64
    /// The key of the item that declared it.
    public var key: String
    /// The action's name.
    public var name: String
    /// The date the item declared.
    public var date: Date
    /// When it runs next: its date, or later after failures.
    public var nextTry: Date
    /// How many times its handler was started (a start that a crash cut short counts).
    public var attempts: Int
    /// How many times its handler threw.
    public var failures: Int
    /// Its retry policy.
    public var retry: RetryPolicy
    /// What the handler's last failure said, if it failed.
    public var lastError: String?
}
