import Foundation

// @coded
enum Plan: Sendable, Equatable {
    case free
    case paid(seats: Int, renews: Date)
}
