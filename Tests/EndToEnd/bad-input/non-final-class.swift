// expect: 3:7: class 'Item' must be 'final'
// @persistable(collection: "items")
class Item {
    let id: String

    init(id: String) {
        self.id = id
    }
}
