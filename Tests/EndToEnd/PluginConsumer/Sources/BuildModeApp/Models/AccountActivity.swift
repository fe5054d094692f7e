// @coded
struct AccountActivity: Sendable, Equatable {
    var logins: Int
}
