import CommittedLibrary
import Foundation
import Trove

let database = try Database.temporary()
let connection = try database.newConnection()
let book = Book(id: "sicp", title: "Structure and Interpretation of Computer Programs", pages: 657)
let note = Note(id: UUID(), text: "Read chapter 3 again", bookID: book.id)
try connection.write { tx in
    try tx.write(book)
    try tx.write(note)
}
let (readBook, readNote) = try connection.read { tx in
    (try tx.read(Book.self, key: "sicp"), try tx.read(Note.self, key: note.id))
}
guard readBook == book, readNote == note else {
    print("CommittedApp: FAILED: read back \(String(describing: readBook)), \(String(describing: readNote))")
    exit(1)
}
print("CommittedApp: round trip OK (collections \(Note.collection), \(Book.collection))")
