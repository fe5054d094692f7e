import Trove

/// The synchronous `write` of `connection`, also from an async test, where the async overload
/// would be chosen (and its closure could not capture the test's variables).
func syncReadWrite<T>(_ connection: Connection, _ body: (ReadWriteTransaction) throws -> T) throws -> T {
    try connection.write(body)
}

/// The synchronous `read` of `connection`, also from an async test.
func syncRead<T>(_ connection: Connection, _ body: (ReadTransaction) throws -> T) throws -> T {
    try connection.read(body)
}
