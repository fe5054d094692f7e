import Foundation
import Trove

// @coded
struct MessageNotes: Sendable, Equatable {
    var note: String
}
